import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { signingIdentity, signRecord } from '@vf/signing';
import { buildRecordXml, buildRegFactuRequest, SCHEMA_DIR } from '@vf/xml';
import { cancellationRecord, f1Record, SAMPLE_ISSUER } from '@vf/xml/testing';
import { createCounters } from './counters';
import { checkSignatures } from './signature-checks';
import type { SimulatorContext } from './simulator-context';

test('every record of a message is verified and counted: valid, invalid or missing, nothing refused', () => {
  const identity = signingIdentity(issueCertificate(createTestCa(), { commonName: 'TITULAR', nif: SAMPLE_ISSUER.nif }));
  const alta = f1Record();
  const signed = signRecord(buildRecordXml(alta), identity, { at: new Date(), id: 'xmldsig-1' });
  const tampered = signRecord(buildRecordXml(cancellationRecord(alta.id)), identity, { at: new Date(), id: 'xmldsig-2' }).replace(
    '<sum1:RefExterna>',
    '<sum1:RefExterna>X',
  );
  const aeatSigned = readFileSync(join(SCHEMA_DIR, 'examples', 'ejemploRegistro-firmado-epes-xades4j.xml'), 'utf8').replace(
    /^<\?xml[^>]*\?>/,
    '',
  );
  const message = buildRegFactuRequest({ obligado: SAMPLE_ISSUER }, [
    signed,
    f1Record({ invoiceNumber: 'SIN-FIRMA' }),
    tampered,
    aeatSigned,
  ]);

  const lines: string[] = [];
  const ctx = { counters: createCounters(), log: (line: string) => lines.push(line) } as unknown as SimulatorContext;
  checkSignatures(ctx, message);
  expect(ctx.counters.signatures).toEqual({ valid: 2, invalid: 1, missing: 1 });
  expect(lines).toEqual([expect.stringMatching(/^invalid signature on record A-2025-0001: the digest of the record does not match/)]);
});
