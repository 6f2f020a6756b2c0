import type { z } from 'zod';
import { validationError, type FieldIssue } from './errors';

/** zod issues as `{ field, reason }` pairs with dotted paths (`recipient.addresses.sms`). */
export function fieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const field = [prefix, path].filter(Boolean).join('.') || '(body)';
    return { field, reason: issue.message };
  });
}

/** Parses `input` or throws a VALIDATION_FAILED NotifyError listing every bad field. */
export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, prefix = ''): T {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldIssues(result.error, prefix));
  return result.data;
}
