import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { addressIn, nonPublicKind } from './address-kind';
import { isAllowedAddress, type AllowedHosts } from './allowed-hosts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name. */
export type ResolveHost = (name: string) => Promise<ResolvedAddress[]>;

export interface DestinationPolicy {
  allowed: AllowedHosts;
  /** The system's resolver (dns.lookup, what a connection would use) unless a test gives its own. */
  resolve?: ResolveHost;
  resolveTimeoutMs?: number;
}

/**
 * A destination that may be connected to, with the one address to connect to (checked, so the connection must use
 * it and not resolve the name again); or why not. `unresolved`: the name has no address right now.
 */
export type Destination = { ok: true; address: ResolvedAddress } | { ok: false; problem: string; unresolved?: boolean };

const systemResolver: ResolveHost = async (name) =>
  (await lookup(name, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

// The host as written, before the URL parser rewrote it ("2852039166", "0xa9.0376.1" and "169.254.1" all become
// 169.254.0.1 and so on): such forms exist to slip past checks, and no receiver needs them.
const WRITTEN_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\\]*@)?([^:/?#\\]*)/i;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function judge(addresses: ResolvedAddress[], allowed: AllowedHosts, what: string): Destination {
  for (const resolved of addresses) {
    const address = ipaddr.parse(resolved.address);
    const kind = nonPublicKind(address);
    if (kind && !isAllowedAddress(allowed, address)) return { ok: false, problem: `${what} ${kind} (${resolved.address})` };
  }
  return { ok: true, address: addresses[0] };
}

/**
 * Whether `url` may receive webhooks: its host must be, or resolve only to, public addresses, unless the operator
 * allowed the name or the address range. Every address of a name is checked (a name answering one public and one
 * internal address is refused), and an IPv4 address must be written as four decimal parts.
 */
export async function checkDestination(url: string, policy: DestinationPolicy): Promise<Destination> {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return { ok: false, problem: 'is not an absolute URL' };
  }
  const literal = addressIn(host);
  if (literal) {
    if (literal.kind() === 'ipv4' && WRITTEN_HOST.exec(url)?.[1].toLowerCase() !== host) {
      return { ok: false, problem: 'writes an IPv4 address in another form than four decimal numbers' };
    }
    return judge([{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }], policy.allowed, 'points to');
  }
  const name = host.replace(/\.$/, '');
  let addresses: ResolvedAddress[];
  try {
    addresses = await withTimeout((policy.resolve ?? systemResolver)(name), policy.resolveTimeoutMs ?? 5_000);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ok: false, problem: `host ${name} does not resolve`, unresolved: true };
  if (policy.allowed.names.has(name)) return { ok: true, address: addresses[0] };
  return judge(addresses, policy.allowed, `host ${name} resolves to`);
}
