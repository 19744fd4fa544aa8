import { registrationsTotal } from '@vf/metrics';
import { ApiError } from '../errors/api-error';

/** Counts each registration by its result: `created`, or the problem code the client gets (`internal_error` if none). */
export function withRegistrationMetrics<S extends { register(...args: never[]): Promise<unknown> }>(service: S): S {
  return {
    ...service,
    async register(...args: Parameters<S['register']>) {
      try {
        const registered = await service.register(...args);
        registrationsTotal.inc({ result: 'created' });
        return registered;
      } catch (err) {
        registrationsTotal.inc({ result: err instanceof ApiError ? err.code : 'internal_error' });
        throw err;
      }
    },
  };
}
