import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './check-destination';

/**
 * A `lookup` for http(s).request that answers the address checkDestination approved, whatever the name resolves to
 * by now: a name that turns internal between the check and the connection (DNS rebinding) still reaches only the
 * checked address. TLS still verifies the certificate against the name.
 */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_name, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
