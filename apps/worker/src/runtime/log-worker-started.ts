import type { Logger } from 'pino';
import { redactUrl } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';

/** The line operators wait for (and tests, by its message): how the worker sends, the proxy without its credentials. */
export function logWorkerStarted(logger: Logger, config: AppConfig): void {
  const { egressProxy } = config.authority;
  logger.info(
    {
      concurrency: config.sender.workerConcurrency,
      mode: config.authority.mode,
      leaseTtlMs: config.worker.leaseTtlMs,
      ...(egressProxy && { egressProxy: redactUrl(egressProxy.url), noProxy: egressProxy.noProxy }),
    },
    'worker started',
  );
}
