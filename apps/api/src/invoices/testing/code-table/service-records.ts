import {
  buildCancellationRecord,
  cancellationFlags,
  chainLinkOf,
  correctionFlags,
  validateInvoiceRequest,
  type ChainRecord,
  type CorrectionFlags,
  type RecordHistoryEntry,
} from '@vf/core';
import { f1Request } from '@vf/core/testing';
import { altaRecordRow, generationTime, rebuildChainRecord, storedContentOf } from '@vf/chain';
import type { AppendSystem, ChainRecordRow, StoredChainRecord, StoredLine } from '@vf/db';
import { buildRegFactuRequest, validateAgainstXsd, type XsdVerdict } from '@vf/xml';
import { TODAY } from './checked-locally';

/** What the service sends for one taxpayer: records as the worker rebuilds them from their rows, and the message. */
export interface ServiceRecords {
  taxpayer: { nif: string; name: string; isProduction: boolean };
  records: ChainRecord[];
  message: string;
  /** The same records in a message sent after an incident (RemisionVoluntaria/Incidencia). */
  afterIncident: string;
  verdict: XsdVerdict;
}

const TAXPAYER = { nif: '89890001K', name: 'CONTRIBUYENTE DE PRUEBAS SL', isProduction: false };
const SYSTEM: AppendSystem = {
  id: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  vendorName: 'PROVEEDOR DE SOFTWARE SL',
  vendorNif: 'B85905495',
  name: 'Facturador',
  systemCode: 'FA',
  version: '1.0.0',
  installationNumber: 'INST-1',
  onlySupportsVerifactu: true,
  supportsMultipleTaxpayers: false,
  soleTaxpayerId: null,
};

const s1 = (base: number, rate: number) => ({
  tax_type: '01',
  regime_type: '01',
  operation_type: 'S1',
  base_amount: base,
  tax_rate: rate,
  tax_amount: (base * rate) / 100,
});

/** Invoices of every shape the API takes, each with what makes it differ. */
const BODIES: Record<string, unknown>[] = [
  f1Request({ invoice_number: 'C-1' }),
  f1Request({
    invoice_number: 'C-2',
    recipient: undefined,
    recipients: [
      { name: 'Uno SL', nif: 'B85905495' },
      { name: 'Client SARL', id_type: '02', id: 'FR12345678901' },
    ],
    issued_by: 'third_party',
    third_party: { name: 'Gestoría SL', nif: 'B63272603' },
    simplified_art_72_73: true,
  }),
  f1Request({ invoice_number: 'C-3', invoice_type: 'F3', substituted_invoices: [{ invoice_number: 'T-1', invoice_date: '2026-11-01' }] }),
  f1Request({
    invoice_number: 'C-4',
    invoice_type: 'R1',
    corrected_invoices: [{ invoice_number: 'C-1', invoice_date: '2026-11-20' }],
    rectification_type: 'S',
    rectified_base_amount: 100,
    rectified_tax_amount: 21,
    rectified_surcharge_amount: 5.2,
    coupon: true,
  }),
  f1Request({
    invoice_number: 'C-5',
    invoice_type: 'R3',
    corrected_invoices: [{ invoice_number: 'C-1', invoice_date: '2026-11-20' }],
    recipient: { name: 'Particular', country: 'ES', id_type: '07', id: '12345678Z' },
  }),
  f1Request({ invoice_number: 'C-6', breakdown: [s1(100_000_000, 21)], total_amount: 121_000_000, total_tax_amount: 21_000_000 }),
  f1Request({
    invoice_number: 'C-7',
    breakdown: [
      { ...s1(100, 21), regime_type: '06', cost_base_amount: 80, tax_amount: 16.8 },
      { regime_type: '01', operation_type: 'E1', base_amount: 10 },
    ],
    total_amount: 126.8,
    total_tax_amount: 16.8,
  }),
  f1Request({ invoice_number: 'C-8', invoice_type: 'F2', recipient: undefined, without_recipient_art_61d: true }),
];

type Step = { kind: 'alta'; body: number; flags?: CorrectionFlags } | { kind: 'anulacion'; body: number; history: RecordHistoryEntry[] };

const flagsAfter = (history: RecordHistoryEntry[]): CorrectionFlags => {
  const decision = correctionFlags(history);
  if (decision.kind !== 'flags') throw new Error(`no correction after ${JSON.stringify(history)}`);
  return decision.flags;
};

// The chain: every invoice registered, then corrections and cancellations with each flag combination of the
// operations matrix that the service chooses from an invoice's history.
const STEPS: Step[] = [
  ...BODIES.map((_, body): Step => ({ kind: 'alta', body })),
  { kind: 'alta', body: 0, flags: flagsAfter([{ recordType: 'registration', status: 'rejected' }]) },
  { kind: 'alta', body: 1, flags: flagsAfter([{ recordType: 'registration', status: 'accepted' }]) },
  {
    kind: 'alta',
    body: 1,
    flags: flagsAfter([
      { recordType: 'registration', status: 'accepted' },
      { recordType: 'correction', status: 'rejected' },
    ]),
  },
  { kind: 'anulacion', body: 2, history: [{ recordType: 'registration', status: 'accepted' }] },
  { kind: 'anulacion', body: 3, history: [{ recordType: 'registration', status: 'rejected' }] },
  {
    kind: 'anulacion',
    body: 4,
    history: [
      { recordType: 'registration', status: 'accepted' },
      { recordType: 'cancellation', status: 'rejected' },
    ],
  },
];

function stored(
  row: ChainRecordRow,
  previous: ChainRecord | undefined,
  extra: Partial<StoredChainRecord> & { lines: StoredLine[] },
): StoredChainRecord {
  return {
    ...storedContentOf(row),
    id: row.id,
    recordType: 'registration',
    subsanacion: false,
    rechazoPrevio: null,
    sinRegistroPrevio: false,
    issuerNif: row.issuerNif,
    issuerName: row.issuerName,
    systemSnapshot: row.systemSnapshot,
    generatedAtLiteral: row.generatedAtLiteral,
    hash: row.hash,
    previous: previous ? { ...chainLinkOf(previous), invoiceDate: isoDate(previous.id.invoiceDate) } : null,
    ...extra,
  };
}

const isoDate = (aeatDate: string) => aeatDate.split('-').reverse().join('-');

/**
 * The records the service would send for one taxpayer, built the way it builds them (validation, the row the API
 * stores, the record the worker rebuilds from it and proves against its huella) and the message they go in.
 */
export async function serviceRecords(): Promise<ServiceRecords> {
  const invoices = BODIES.map((body) => {
    const result = validateInvoiceRequest(body, { today: TODAY });
    if (!result.valid) throw new Error(JSON.stringify(result.errors));
    return result.invoice;
  });
  const rows: ChainRecordRow[] = [];
  const records: ChainRecord[] = [];
  let previousRow: ChainRecordRow | undefined;
  STEPS.forEach((step, n) => {
    const previous = records.at(-1);
    const generated = generationTime(new Date(Date.UTC(2026, 10, 22, 9, 0, n)), previousRow);
    const head = previousRow && {
      ...previousRow,
      hash: previous!.hash,
      invoiceNumber: previous!.id.invoiceNumber,
      invoiceDate: isoDate(previous!.id.invoiceDate),
    };
    const { row, lines } = altaRecordRow({
      accountId: 'account-1',
      id: `record-${n + 1}`,
      taxpayer: TAXPAYER,
      chainId: 'chain-1',
      position: n + 1,
      previous: head,
      generated,
      invoice: invoices[step.body],
      system: SYSTEM,
      severalTaxpayers: false,
      warnings: [],
    });
    if (step.kind === 'alta') {
      const flags = step.flags ? { subsanacion: true, rechazoPrevio: step.flags.rechazoPrevio ?? null } : {};
      records.push(rebuildChainRecord(stored(row, previous, { lines, ...flags })));
    } else {
      const decision = cancellationFlags(step.history);
      if (decision.kind !== 'flags') throw new Error('no cancellation flags');
      const cancellation = buildCancellationRecord({
        invoice: { issuerNif: row.issuerNif, invoiceNumber: row.invoiceNumber, invoiceDate: row.invoiceDate },
        system: row.systemSnapshot,
        previous: previous && chainLinkOf(previous),
        generatedAt: generated.literal,
        externalRef: row.id,
        ...decision.flags,
      });
      records.push(
        rebuildChainRecord(
          stored({ ...row, hash: cancellation.hash }, previous, {
            recordType: 'cancellation',
            lines: [],
            sinRegistroPrevio: decision.flags.sinRegistroPrevio,
            rechazoPrevio: decision.flags.rechazoPrevio ? 'S' : null,
          }),
        ),
      );
    }
    rows.push(row);
    previousRow = { ...row, generatedAt: generated.at, generatedAtLiteral: generated.literal };
  });
  const header = { obligado: { name: TAXPAYER.name, nif: TAXPAYER.nif } };
  const message = buildRegFactuRequest(header, records);
  return {
    taxpayer: TAXPAYER,
    records,
    message,
    afterIncident: buildRegFactuRequest({ ...header, incident: true }, records),
    verdict: await validateAgainstXsd(message, 'request'),
  };
}
