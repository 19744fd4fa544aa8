import ipaddr from 'ipaddr.js';

// ipaddr.js's names for the ranges, as an operator reads them in a refusal.
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  carrierGradeNat: 'a carrier-grade NAT address',
  ipv4Mapped: 'an IPv4-mapped address',
};

/**
 * Undefined for an address on the public internet; otherwise what it is. Only ipaddr.js's `unicast` range is public:
 * loopback, private, link-local, unique-local, multicast, unspecified, reserved and documentation ranges are not,
 * nor are the IPv6 forms that carry an IPv4 address inside (IPv4-mapped, NAT64, 6to4, Teredo), whatever it is.
 */
export function nonPublicKind(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
}

/** The address in `host` (a URL's hostname, IPv6 in brackets or not), or undefined for a name. */
export function addressIn(host: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : undefined;
}
