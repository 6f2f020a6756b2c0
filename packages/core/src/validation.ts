import type { z } from 'zod';
import { validationError, type FieldIssue } from './errors';

/**
 * What an error may echo of the request: a hostile body of 100,000 unknown keys must not come
 * back as a multi-megabyte answer (zod names every unknown key in one message).
 */
export const ECHO_LIMITS = { issues: 20, keys: 5, nameLength: 64, reasonLength: 300 } as const;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

function reasonOf(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return cut(issue.message, ECHO_LIMITS.reasonLength);
  const shown = issue.keys.slice(0, ECHO_LIMITS.keys).map((key) => JSON.stringify(cut(key, ECHO_LIMITS.nameLength)));
  const rest = issue.keys.length - shown.length;
  return `unrecognized key${issue.keys.length === 1 ? '' : 's'}: ${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
}

/**
 * A union none of whose options accepted the value names the exact field when one option
 * matched the value's type (e.g. the push address given as an object: the subscription's
 * issues, `keys.p256dh`, rather than "invalid input" on the whole address).
 */
function expandUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !Array.isArray(issue.errors)) return [issue];
    const matched = issue.errors.filter((option) => !option.every((sub) => sub.code === 'invalid_type' && sub.path.length === 0));
    if (matched.length !== 1) return [issue];
    return expandUnions(matched[0] ?? []).map((sub) => ({ ...sub, path: [...issue.path, ...sub.path] }));
  });
}

/**
 * zod issues as `{ field, reason }` pairs with dotted paths (`recipient.addresses.sms`): at most
 * `ECHO_LIMITS.issues` listed, then one `(more)` entry counting the rest; names and reasons cut.
 */
export function fieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  const issues = expandUnions(error.issues);
  const listed = issues.slice(0, ECHO_LIMITS.issues).map((issue) => {
    const path = issue.path.map((part) => cut(String(part), ECHO_LIMITS.nameLength)).join('.');
    const field = [prefix, path].filter(Boolean).join('.') || '(body)';
    return { field, reason: reasonOf(issue) };
  });
  const rest = issues.length - listed.length;
  return rest > 0 ? [...listed, { field: '(more)', reason: `${rest} more issue${rest === 1 ? '' : 's'} not listed` }] : listed;
}

/** Parses `input` or throws a VALIDATION_FAILED NotifyError listing every bad field. */
export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, prefix = ''): T {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldIssues(result.error, prefix));
  return result.data;
}

/**
 * The one readable form of a configuration error (env variables, CLI flags): one line per
 * issue, `  <name>: <reason>`, where `name` renders the path (`--rate` for a flag).
 */
export function formatConfigIssues(what: string, error: z.ZodError, name: (path: string) => string = (path) => path): string {
  const lines = error.issues.map((issue) => `  ${name(issue.path.map(String).join('.')) || '(config)'}: ${cut(issue.message, ECHO_LIMITS.reasonLength)}`);
  return `invalid ${what} configuration:\n${lines.join('\n')}`;
}
