/**
 * `WEBHOOK_ALLOWED_HOSTS`: the hosts exempt from the SSRF guard's private-address refusal. An
 * entry names a host as the endpoint URL writes it (a name or an IP literal, IPv6 in brackets
 * when a port follows) and optionally a port: `127.0.0.1:9000` allows that port only, so that
 * allowing a receiver does not open every other service of the same host; `hooks.internal`
 * (no port) allows every port of that host.
 */
export interface AllowedHost {
  /** Lower case, IPv6 without brackets. */
  host: string;
  /** Undefined: every port. */
  port?: number;
}

const BRACKETED = /^\[([^\]]+)\](?::(\d{1,5}))?$/;
const WITH_PORT = /^([^:[\]]+):(\d{1,5})$/;

/** One entry; undefined when it is not `host`, `host:port`, `[ipv6]` or `[ipv6]:port` (a bare IPv6 has no port). */
export function parseAllowedHost(entry: string): AllowedHost | undefined {
  const text = entry.trim().toLowerCase();
  if (text === '') return undefined;
  const bracketed = BRACKETED.exec(text) ?? WITH_PORT.exec(text);
  const host = bracketed ? (bracketed[1] as string) : text;
  const port = bracketed?.[2] === undefined ? undefined : Number(bracketed[2]);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  if (!bracketed && /[[\]]/.test(text)) return undefined;
  return port === undefined ? { host } : { host, port };
}

/** The port a URL connects to: its own, or its scheme's default. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Whether `host` (as `hostOf` spells it) is allowed on `port`. Without a port (a check that does
 * not know it), only entries that allow every port match.
 */
export function isAllowedHost(allowed: readonly string[], host: string, port?: number): boolean {
  return allowed.some((entry) => {
    const parsed = parseAllowedHost(entry);
    return parsed !== undefined && parsed.host === host && (parsed.port === undefined || parsed.port === port);
  });
}
