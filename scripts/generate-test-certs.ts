// Writes throwaway test credentials for the authority simulator and local runs (never for AEAT).
// Usage: npm run certs -- [dir] [--force]   (dir defaults to $CERT_DIR or var/certs)
import { resolve } from 'node:path';
import { writeTestCertificates } from '@vf/certificates/src/testing';

const args = process.argv.slice(2);
const force = args.includes('--force');
const dir = resolve(args.find((arg) => !arg.startsWith('--')) ?? process.env.CERT_DIR ?? 'var/certs');

const result = writeTestCertificates(dir, { force });
console.log(`Test certificates in ${result.dir} (TEST ONLY, not valid for AEAT)`);
if (result.written.length) console.log(`  written: ${result.written.join(', ')}`);
if (result.kept.length) console.log(`  kept:    ${result.kept.join(', ')}`);
