import { writeTestCertificates } from '@vf/certificates/testing';
import type { Logger } from 'pino';

/** Writes the throwaway certificates for the simulator and local runs (never for AEAT) and says which, by file name. */
export function prepareTestCertificates(dir: string, force: boolean, logger: Logger): void {
  const result = writeTestCertificates(dir, { force });
  // File names only: the passwords stay in passwords.json (0600).
  logger.info({ dir: result.dir, written: result.written, kept: result.kept }, 'test certificates ready (TEST ONLY, not valid for AEAT)');
}
