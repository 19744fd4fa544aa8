import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readPkcs12 } from '@vf/certificates';
import { DEFAULT_TAXPAYER_NIFS, TEST_CERT_FILES } from '@vf/certificates/testing';
import { signingIdentity, signRecord } from '@vf/signing';
import { verifyRecordSignature } from '@vf/signing/verify-record-signature';
import { buildRecordXml } from '@vf/xml';
import { f1Record } from '@vf/xml/testing';
import type { SigningResult } from '../report/result-types';
import { round } from '../report/stats';

const WARM_UP = 200;

function cpuMsPer(count: number, work: (i: number) => void): number {
  for (let i = 0; i < WARM_UP; i += 1) work(i);
  const start = process.cpuUsage();
  for (let i = 0; i < count; i += 1) work(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / count;
}

/**
 * What the worker's signing step costs a record, in this process: the record written canonical (as the worker
 * writes it anyway) and signed with a taxpayer's 2,048-bit key as signRecord does it; then what verifying one costs
 * (the verification endpoints, the simulator). CPU time, so other processes on the machine do not count.
 */
export function measureSigning(certDir: string, records: number): SigningResult {
  const nif = DEFAULT_TAXPAYER_NIFS[0];
  const file = TEST_CERT_FILES.taxpayer(nif);
  const passwords = JSON.parse(readFileSync(path.join(certDir, TEST_CERT_FILES.passwords), 'utf8')) as Record<string, string>;
  const identity = signingIdentity(readPkcs12(readFileSync(path.join(certDir, file)), passwords[file]));
  const unsigned = Array.from({ length: Math.min(records, 1000) }, (_, i) =>
    buildRecordXml(f1Record({ issuerNif: nif, invoiceNumber: `SIGN-${i}` }, { hash: 'A'.repeat(64) })),
  );
  const at = new Date();
  const signed: string[] = [];
  const signMs = cpuMsPer(records, (i) => {
    signed[i % unsigned.length] = signRecord(unsigned[i % unsigned.length], identity, { at });
  });
  const verifyMs = cpuMsPer(Math.min(records, 500), (i) => {
    if (verifyRecordSignature(signed[i % signed.length]).status !== 'valid') throw new Error('a signed record did not verify');
  });
  return { records, signCpuMsPerRecord: round(signMs, 3)!, verifyCpuMsPerRecord: round(verifyMs, 3)!, signedBytes: signed[0].length };
}
