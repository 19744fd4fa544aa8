// Writes throwaway test credentials for the authority simulator and local runs (never for AEAT).
// Usage: npm run certs -- [dir] [--force]   (dir defaults to $CERT_DIR or var/certs)
import { resolve } from 'node:path';
import { writeTestCertificates } from '@vf/certificates/testing';
import { createLogger } from '@vf/logger';

const args = process.argv.slice(2);
const force = args.includes('--force');
const dir = resolve(args.find((arg) => !arg.startsWith('--')) ?? process.env.CERT_DIR ?? 'var/certs');
const logger = createLogger({ service: 'certs', level: process.env.LOG_LEVEL ?? 'info' });

const result = writeTestCertificates(dir, { force });
// File names only: the passwords stay in passwords.json (0600).
logger.info({ dir: result.dir, written: result.written, kept: result.kept }, 'test certificates ready (TEST ONLY, not valid for AEAT)');
