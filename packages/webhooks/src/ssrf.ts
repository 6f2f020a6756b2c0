import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { isAllowedHost } from './allowed-hosts';

/**
 * The SSRF guard. An endpoint URL is http(s) only, and every address its host resolves to must be
 * public unicast: loopback, link-local (169.254.169.254 the metadata service among them), private
 * (RFC 1918), unique-local (fc00::/7, fd00:ec2::254 among them), carrier-grade NAT, unspecified,
 * multicast, broadcast, reserved and the IPv6 forms that embed an IPv4 address are refused (the
 * IPv4-mapped `::ffff:0:0/96` is judged by the IPv4 address it carries; the deprecated
 * IPv4-compatible `::/96`, `[::127.0.0.1]` among them, is refused whole: nothing public uses it),
 * unless the URL's host and port are in the operator's allow-list (allowed-hosts.ts).
 * Checked at registration and again at send time on the addresses the connection then uses.
 */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('::'), 96];

/** A refused address: why, in words safe to show (never the address itself). */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).match(IPV4_COMPATIBLE)) return 'an IPv4-compatible IPv6 address';
  const range = ip.range();
  return range === 'unicast' ? undefined : `a ${range} address`;
}

/** The URL's host as the allow-list spells it: lower case, IPv6 without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

export class SsrfRefusedError extends Error {
  readonly code = 'WEBHOOK_SSRF_REFUSED';
  constructor(reason: string) {
    super(`webhook endpoint refused: ${reason}`);
    this.name = 'SsrfRefusedError';
  }
}

export interface GuardOptions {
  allowedHosts: readonly string[];
  resolve?: Resolver;
}

/**
 * Checks the addresses of a host; throws SsrfRefusedError naming the first refused range.
 * `port`: the port the connection goes to (an allow-list entry with a port matches it only).
 */
export async function checkHost(host: string, options: GuardOptions, port?: number): Promise<LookupAddress[] | 'allowed'> {
  if (isAllowedHost(options.allowedHosts, host, port)) return 'allowed';
  if (ipaddr.isValid(host)) {
    const refusal = addressRefusal(host);
    if (refusal) throw new SsrfRefusedError(`the host is ${refusal}`);
    return [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  }
  const addresses = await (options.resolve ?? systemResolver)(host);
  if (addresses.length === 0) throw new SsrfRefusedError('the host does not resolve');
  for (const { address } of addresses) {
    const refusal = addressRefusal(address);
    if (refusal) throw new SsrfRefusedError(`the host resolves to ${refusal}`);
  }
  return addresses;
}

/**
 * `connect.lookup` for connections to `port`: the connection goes to the addresses checked here
 * and no others (no second resolution between the check and the connect: no DNS rebinding). An
 * IP literal never reaches a lookup: the sender checks it before the request.
 */
export function guardedLookup(options: GuardOptions, port?: number) {
  const resolve = options.resolve ?? systemResolver;
  const addressesOf = async (host: string): Promise<LookupAddress[]> => {
    const checked = await checkHost(host, options, port);
    return checked === 'allowed' ? resolve(host) : checked;
  };
  return (
    hostname: string,
    lookupOptions: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    addressesOf(hostname.toLowerCase().replace(/^\[|\]$/g, '')).then(
      (addresses) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : undefined;
        const wanted = family ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (!first) callback(new SsrfRefusedError('the host has no address to connect to'), '');
        else if (lookupOptions.all) callback(null, wanted);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}
