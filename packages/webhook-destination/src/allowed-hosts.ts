import ipaddr from 'ipaddr.js';

/** What an operator allows besides public addresses (WEBHOOK_ALLOWED_HOSTS): host names, addresses and CIDR ranges. */
export interface AllowedHosts {
  names: ReadonlySet<string>;
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** True for an entry WEBHOOK_ALLOWED_HOSTS may hold: a host name, an IP address or a CIDR range. */
export function isAllowedHostEntry(entry: string): boolean {
  return ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry) || HOST_NAME.test(entry);
}

/** The allow-list from its entries; an address is a range of one. Entries must pass isAllowedHostEntry. */
export function parseAllowedHosts(entries: readonly string[]): AllowedHosts {
  const names = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of entries.map((e) => e.trim()).filter(Boolean)) {
    if (ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (HOST_NAME.test(entry)) names.add(entry.toLowerCase());
    else throw new Error(`"${entry}" is not a host name, an IP address or a CIDR range`);
  }
  return { names, ranges };
}

export function isAllowedAddress(allowed: AllowedHosts, address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return allowed.ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}
