import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { CHANNELS, type Channel } from '@notify/core';
import { PROVIDER_KINDS, type ProviderKind } from '../adapter';
import { providerIdentity, type ProviderIdentity } from './provider-identity';
import { fcmProviderConfigSchema } from '../fcm/config';
import { httpSmsProviderConfigSchema } from '../http-sms/config';
import { simulatorProviderConfigSchema, type SimulatorProviderConfigInput } from '../simulator/config';
import { smppProviderConfigSchema } from '../smpp/config';
import { smtpProviderConfigSchema } from '../smtp/config';
import { webPushProviderConfigSchema } from '../web-push/config';

/** Every provider kind's configuration, told apart by `kind`. */
export const providerConfigSchema = z.discriminatedUnion('kind', [
  simulatorProviderConfigSchema,
  smtpProviderConfigSchema,
  webPushProviderConfigSchema,
  fcmProviderConfigSchema,
  smppProviderConfigSchema,
  httpSmsProviderConfigSchema,
]);
export type ProviderConfig = z.infer<typeof providerConfigSchema>;

/**
 * PROVIDERS_FILE: each channel's providers, in the order they are tried. A channel the file
 * does not name keeps its default, the simulator named after the channel. Names are unique
 * across channels: breakers, metrics and attempt records use them.
 */
export const providersFileSchema = z.strictObject({ providers: z.array(providerConfigSchema).min(1).max(50) }).superRefine((file, ctx) => {
  const seen = new Set<string>();
  file.providers.forEach((p, i) => {
    if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: ['providers', i, 'name'], message: `provider name '${p.name}' is used twice` });
    seen.add(p.name);
  });
});

/** A providers file that cannot be used: the message names the file and the field, never a value (they hold secrets). */
export class ProvidersFileError extends Error {
  override readonly name = 'ProvidersFileError';
}

const ENV_REFERENCE = /\$\{([A-Z_][A-Z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string of the file with the environment variable NAME, so secrets
 * (SMTP passwords, VAPID and service-account keys, SMPP passwords) stay in the environment and
 * the file can be committed. A reference to an unset variable is an error naming the variable.
 */
export function expandEnvReferences(value: unknown, env: Readonly<Record<string, string | undefined>>, path = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCE, (_match, name: string) => {
      const resolved = env[name];
      if (resolved === undefined) throw new ProvidersFileError(`${path || 'value'} refers to \${${name}}, which is not set`);
      return resolved;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnvReferences(v, env, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnvReferences(v, env, path ? `${path}.${k}` : k)]));
  }
  return value;
}

/** Parses a providers file's text (YAML, or JSON, which YAML reads too) and validates it. */
export function parseProvidersFile(text: string, env: Readonly<Record<string, string | undefined>>, source = 'PROVIDERS_FILE'): ProviderConfig[] {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ProvidersFileError(`${source} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const expanded = expandEnvReferences(raw, env);
  const parsed = providersFileSchema.safeParse(expanded);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) =>
        `${issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')}: ${issue.message}`,
    );
    throw new ProvidersFileError(`${source} is invalid: ${problems.join('; ')}`);
  }
  return parsed.data.providers;
}

function readProvidersText(path: string): string {
  if (!['.yaml', '.yml', '.json'].includes(extname(path).toLowerCase())) throw new ProvidersFileError('PROVIDERS_FILE must end in .yaml, .yml or .json');
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ProvidersFileError(`PROVIDERS_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Reads and validates PROVIDERS_FILE (`.yaml`, `.yml` or `.json`). */
export function loadProvidersFile(path: string, env: Readonly<Record<string, string | undefined>>): ProviderConfig[] {
  return parseProvidersFile(readProvidersText(path), env);
}

/** The channel a kind serves when an entry does not say (simulators always say). */
const KIND_CHANNEL: Readonly<Record<string, Channel>> = { smtp: 'email', 'web-push': 'push', fcm: 'push', smpp: 'sms', 'http-sms': 'sms' };

const routeEntrySchema = z.object({ name: z.string(), kind: z.string(), channel: z.enum(CHANNELS).optional(), controlUrl: z.string().optional() });

/** A provider as tools see it without its secrets: its name, kind, channel and (simulators) control API. */
export interface ProviderOutline {
  name: string;
  kind: string;
  channel: Channel;
  controlUrl?: string;
}

/**
 * Every provider named by PROVIDERS_FILE, without validating or expanding its secrets (`${...}`
 * is expanded only in `controlUrl`, from `env`): what the chaos CLI needs to find a simulator.
 */
export function loadProviderOutlines(path: string, env: Readonly<Record<string, string | undefined>>): ProviderOutline[] {
  return readRouteEntries(path).map(({ index, controlUrl, ...entry }) =>
    controlUrl === undefined ? entry : { ...entry, controlUrl: expandEnvReferences(controlUrl, env, `providers[${index}].controlUrl`) as string },
  );
}

/**
 * Each channel's provider names from PROVIDERS_FILE without its secrets: what the api needs to
 * read the breakers (a channel is open only when all its providers are). The workers validate
 * the whole file; here only names, kinds and channels are read, and `${...}` is not expanded.
 */
export function loadProviderRoutes(path: string | undefined): Record<Channel, string[]> {
  const routes = Object.fromEntries(CHANNELS.map((c) => [c, [] as string[]])) as Record<Channel, string[]>;
  for (const entry of readRouteEntries(path)) routes[entry.channel].push(entry.name);
  for (const channel of CHANNELS) if (routes[channel].length === 0) routes[channel].push(channel);
  return routes;
}

/** Each channel's provider kinds (a channel the file does not name: its simulator): what intake checks addresses against. */
export function loadProviderKinds(path: string | undefined): Record<Channel, ProviderKind[]> {
  const kinds = Object.fromEntries(CHANNELS.map((c) => [c, [] as ProviderKind[]])) as Record<Channel, ProviderKind[]>;
  for (const entry of readRouteEntries(path))
    if ((PROVIDER_KINDS as readonly string[]).includes(entry.kind)) kinds[entry.channel].push(entry.kind as ProviderKind);
  for (const channel of CHANNELS) if (kinds[channel].length === 0) kinds[channel].push('simulator');
  return kinds;
}

/**
 * Every provider that may send events in: PROVIDERS_FILE's entries, and for each channel the
 * file does not name its default simulator (named after the channel), as the workers resolve them.
 */
export function loadProviderIdentities(path: string | undefined): ProviderIdentity[] {
  const named = readRouteEntries(path).filter((e) => (PROVIDER_KINDS as readonly string[]).includes(e.kind));
  const identities = named.map((e) => providerIdentity(e.name, e.kind as ProviderKind, e.channel));
  for (const channel of CHANNELS) if (!named.some((e) => e.channel === channel)) identities.push(providerIdentity(channel, 'simulator', channel));
  return identities;
}

/** Names, kinds, channels (and control URLs, unexpanded) of PROVIDERS_FILE's entries with their index in the file; none when unset. */
function readRouteEntries(path: string | undefined): (ProviderOutline & { index: number })[] {
  if (path === undefined) return [];
  let raw: unknown;
  try {
    raw = parseYaml(readProvidersText(path));
  } catch (error) {
    if (error instanceof ProvidersFileError) throw error;
    throw new ProvidersFileError('PROVIDERS_FILE is not valid YAML or JSON');
  }
  const parsed = z.object({ providers: z.array(routeEntrySchema) }).safeParse(raw);
  if (!parsed.success) throw new ProvidersFileError(`PROVIDERS_FILE is invalid: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  return parsed.data.providers.flatMap((entry, index) => {
    const channel = entry.channel ?? KIND_CHANNEL[entry.kind];
    if (!channel) return [];
    return [{ index, name: entry.name, kind: entry.kind, channel, ...(entry.controlUrl !== undefined ? { controlUrl: entry.controlUrl } : {}) }];
  });
}

/**
 * Every channel's providers: the file's entries for the channels it names, in file order, and
 * for every other channel its default simulator (named after the channel).
 */
export function resolveProviders(
  fromFile: readonly ProviderConfig[] | undefined,
  defaults: Readonly<Record<Channel, Omit<SimulatorProviderConfigInput, 'kind' | 'name' | 'channel'>>>,
): ProviderConfig[] {
  const resolved: ProviderConfig[] = [];
  for (const channel of CHANNELS) {
    const named = (fromFile ?? []).filter((p) => p.channel === channel);
    if (named.length > 0) resolved.push(...named);
    else resolved.push(simulatorProviderConfigSchema.parse({ ...defaults[channel], kind: 'simulator', name: channel, channel }));
  }
  const names = new Set(resolved.map((p) => p.name));
  if (names.size !== resolved.length)
    throw new ProvidersFileError('PROVIDERS_FILE names a provider like a channel whose default simulator it does not replace; rename it');
  return resolved;
}

/** Each channel's provider names in the order they are tried (the breakers' routes). */
export function providerRoutes(providers: readonly ProviderConfig[]): Record<Channel, string[]> {
  return Object.fromEntries(CHANNELS.map((c) => [c, providers.filter((p) => p.channel === c).map((p) => p.name)])) as Record<Channel, string[]>;
}
