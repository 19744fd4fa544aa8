import type { RequestHandler } from 'express';
import { operatorAuthorized, operatorChallenge, type OperatorCredentials } from '@vf/metrics';

/** HTTP Basic for operator pages; answers a plain 401 challenge so browsers prompt for credentials. */
export function basicAuth(expected: OperatorCredentials, realm: string): RequestHandler {
  return (req, res, next) => {
    if (operatorAuthorized(req.headers.authorization, expected)) return next();
    res.setHeader('WWW-Authenticate', operatorChallenge(realm));
    res.status(401).type('text/plain').send('Authentication required');
  };
}
