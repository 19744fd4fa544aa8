import { AEAT_ERROR_TABLE, checkAgainstIssuer, explainCause, validateInvoiceRequest, type AeatErrorEntry } from '@vf/core';
import { AUTHORITY_ONLY } from './testing/code-table/authority-only';
import { BY_CONSTRUCTION, type ConstructionProof } from './testing/code-table/by-construction';
import { INVOICE_CHECKS, LINE_CHECKS, TODAY, type LocalCheck } from './testing/code-table/checked-locally';
import { serviceRecords, type ServiceRecords } from './testing/code-table/service-records';

// Every code of the authority's current error table (errores.properties, tikeV1.0), accounted for in one of three
// ways: checked by the service with that very code before anything is sent, guaranteed by how the service builds
// what it sends, or knowable only by the authority.

type Handling =
  { kind: 'local'; check: LocalCheck } | { kind: 'construction'; proof: ConstructionProof } | { kind: 'authority'; why: string };

const handling = new Map<number, Handling[]>();
const add = (code: number, h: Handling) => handling.set(code, [...(handling.get(code) ?? []), h]);
for (const check of [...INVOICE_CHECKS, ...LINE_CHECKS]) add(check.code, { kind: 'local', check });
for (const proof of BY_CONSTRUCTION) for (const code of proof.codes) add(code, { kind: 'construction', proof });
for (const { codes, why } of AUTHORITY_ONLY) for (const code of codes) add(code, { kind: 'authority', why });

let records: ServiceRecords;
beforeAll(async () => {
  records = await serviceRecords();
});

test('every code of the table is accounted for exactly once, and nothing else is', () => {
  expect(AEAT_ERROR_TABLE).toHaveLength(247);
  const twice = [...handling].filter(([, hs]) => hs.length > 1).map(([code]) => code);
  expect(twice).toEqual([]);
  expect([...handling.keys()].sort()).toEqual(AEAT_ERROR_TABLE.map((e) => e.code).sort());
});

function issuesOf(check: LocalCheck) {
  const result = validateInvoiceRequest(check.body, { today: check.today ?? TODAY });
  const issuer = check.issuerNif && result.valid ? checkAgainstIssuer(result.invoice, check.issuerNif) : [];
  return { errors: [...(result.valid ? [] : result.errors), ...issuer], warnings: result.warnings };
}

const label = (e: AeatErrorEntry) =>
  `${e.code} (${e.level}) ${(handling.get(e.code)?.[0]?.kind ?? 'unaccounted').padEnd(12)} ${e.text.slice(0, 60)}`;

test.each(AEAT_ERROR_TABLE.map((e) => [label(e), e] as const))('%s', async (_label, entry) => {
  const [how] = handling.get(entry.code) ?? [];
  if (!how) throw new Error(`${entry.code} is not accounted for`);
  if (how.kind === 'local') {
    const { errors, warnings } = issuesOf(how.check);
    if (entry.level === 'accepted') {
      // The authority would store it with this error: the service registers it and says so, with what to do.
      expect(errors).toEqual([]);
      expect(warnings).toContainEqual(
        expect.objectContaining({
          field: how.check.field,
          authority_code: entry.code,
          explanation: { es: expect.any(String), en: expect.any(String) },
        }),
      );
    } else {
      expect(errors).toContainEqual(expect.objectContaining({ field: how.check.field, authority_code: entry.code }));
    }
  } else if (how.kind === 'construction') {
    await how.proof.proof(records);
  } else {
    // It reaches the user as the authority's answer: in plain words, in Spanish and English.
    const text = explainCause({ code: entry.code });
    expect(text?.es.explanation).toMatch(/\S/);
    expect(text?.en.explanation).toMatch(/\S/);
    expect(how.why).toMatch(/authority/);
  }
});
