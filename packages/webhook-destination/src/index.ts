export { checkDestination, type Destination, type DestinationPolicy, type ResolvedAddress, type ResolveHost } from './check-destination';
export { isAllowedHostEntry, parseAllowedHosts, type AllowedHosts } from './allowed-hosts';
export { pinnedLookup } from './pinned-lookup';
