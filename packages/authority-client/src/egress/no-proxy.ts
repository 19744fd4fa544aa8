const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Whether a NO_PROXY list (curl's reading: `*`, host names matching themselves and their subdomains, with or without
 * a leading dot, IP addresses, each optionally with `:port`) lets a request to `target` go directly.
 */
export function bypassesProxy(target: URL, noProxy: readonly string[]): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol];
  return noProxy.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') return true;
    // A bare IPv6 address has colons of its own: only in brackets does it take a port.
    const bareIpv6 = !entry.startsWith('[') && entry.split(':').length > 2;
    const [, name, entryPort] = bareIpv6 ? [entry, entry] : (/^\[?(.+?)\]?(?::(\d+))?$/.exec(entry) ?? []);
    if (!name || (entryPort !== undefined && Number(entryPort) !== port)) return false;
    const suffix = name.startsWith('.') ? name : `.${name}`;
    return host === suffix.slice(1) || host.endsWith(suffix);
  });
}
