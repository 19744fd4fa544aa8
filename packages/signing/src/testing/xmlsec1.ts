import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Verifies a signed record with xmlsec1 (Debian's `xmlsec1`), an implementation independent of the service's:
 * true when it reports the signature OK, trusting `caPem` (or, without it, the certificate in KeyInfo as is).
 */
export function xmlsec1Verifies(signedRecord: string, caPem?: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'xmlsec1-'));
  try {
    const record = join(dir, 'record.xml');
    writeFileSync(record, signedRecord);
    const trust: string[] = [];
    if (caPem) {
      writeFileSync(join(dir, 'ca.pem'), caPem);
      trust.push('--trusted-pem', join(dir, 'ca.pem'));
    } else {
      trust.push('--insecure');
    }
    const args = ['--verify', ...trust, '--id-attr:Id', 'http://uri.etsi.org/01903/v1.3.2#:SignedProperties', record];
    try {
      const output = execFileSync('xmlsec1', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return { ok: true, output };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
