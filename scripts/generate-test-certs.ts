// Writes throwaway test credentials for the authority simulator and local runs (never for AEAT).
// Usage: npm run certs -- [dir] [--force]   (dir defaults to $CERT_DIR or var/certs)
import { resolve } from 'node:path';
import { createLogger } from '@vf/logger';
import { prepareTestCertificates } from './prepare-test-certificates';

const args = process.argv.slice(2);
const force = args.includes('--force');
const dir = resolve(args.find((arg) => !arg.startsWith('--')) ?? process.env.CERT_DIR ?? 'var/certs');
const logger = createLogger({ service: 'certs', level: process.env.LOG_LEVEL ?? 'info' });

prepareTestCertificates(dir, force, logger);
