import { Agent } from 'node:https';
import type { AppConfig } from '@vf/config';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { HashMismatchError, rebuildChainRecord } from '@vf/chain';
import { requestXmlAsSent, type BatchInvoice } from '@vf/db';
import { signingIdentity } from '@vf/signing';
import { verifyRecordSignature } from '@vf/signing/verify-record-signature';
import { parseRegFactuRequest } from '@vf/xml';
import type { ClientCertificate } from '@vf/authority-client';
import { planMessage, type MessageInput, type PreparedMessage } from './plan-message';

const NOW = new Date('2026-03-02T10:00:00Z');
const NIF = 'B12345674';
const holder = issueCertificate(createTestCa(), { commonName: 'TITULAR', nif: NIF, notBefore: new Date('2026-01-01T00:00:00Z') });
const certificate: ClientCertificate = {
  mode: 'taxpayer',
  agent: new Agent(),
  subject: 'CN=TITULAR',
  fingerprint: 'AA:BB',
  signer: signingIdentity(holder),
};
const authority: AppConfig['authority'] = {
  mode: 'simulator',
  simulatorUrl: 'https://127.0.0.1:9443/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  scenarioSimulatorUrl: 'https://sim.beside:8443/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  useSealHosts: false,
  requestTimeoutMs: 10_000,
};

afterAll(() => certificate.agent.destroy());

/** Stored anulaciones of one chain, each with the huella its row really hashes to. */
function chain(length: number, patch: (seq: number) => Partial<BatchInvoice> = () => ({})): BatchInvoice[] {
  const rows: BatchInvoice[] = [];
  for (let seq = 1; seq <= length; seq += 1) {
    const previous = rows.at(-1);
    const row: BatchInvoice = {
      id: `inv-${seq}`,
      chainSeq: seq,
      recordType: 'cancellation',
      subsanacion: false,
      rechazoPrevio: null,
      sinRegistroPrevio: false,
      issuerNif: NIF,
      issuerName: 'EMPRESA DE PRUEBA SL',
      systemSnapshot: {
        NombreRazon: 'PROVEEDOR SL',
        NIF: 'A39200019',
        NombreSistemaInformatico: 'FACTURADOR',
        IdSistemaInformatico: '01',
        Version: '1.0',
        NumeroInstalacion: '1',
        TipoUsoPosibleSoloVerifactu: 'S',
        TipoUsoPosibleMultiOT: 'N',
        IndicadorMultiplesOT: 'N',
      },
      generatedAtLiteral: '2026-03-02T10:59:00+01:00',
      generatedAt: new Date('2026-03-02T09:59:00Z'),
      hash: '',
      previous: previous
        ? { issuerNif: NIF, invoiceNumber: previous.invoiceNumber, invoiceDate: previous.invoiceDate, hash: previous.hash }
        : null,
      lines: [],
      taxpayerId: 'taxpayer-1',
      computerSystemId: 'system-1',
      invoiceNumber: `F-${seq}`,
      invoiceDate: '2026-03-02',
      invoiceType: 'F1',
      description: 'Venta',
      operationDate: null,
      recipient: null,
      additionalRecipients: [],
      issuedBy: null,
      thirdParty: null,
      simplifiedArt7273: false,
      withoutRecipientArt61d: false,
      coupon: false,
      rectifiedSurchargeAmount: null,
      substitutedInvoices: [],
      rectificationType: null,
      rectifiedBaseAmount: null,
      rectifiedTaxAmount: null,
      correctedInvoices: [],
      totalAmount: '0.00',
      totalTaxAmount: '0.00',
      authorityStatus: 'queued',
      nextAttemptAt: null,
      sendAttempts: 0,
      isProduction: false,
      signedXml: null,
      sandboxScenario: null,
      ...patch(seq),
    };
    try {
      rebuildChainRecord(row);
    } catch (err) {
      if (!(err instanceof HashMismatchError)) throw err;
      row.hash = err.rebuiltHash;
    }
    rows.push(row);
  }
  return rows;
}

function input(waiting: BatchInvoice[], patch: Partial<MessageInput> = {}): MessageInput {
  return {
    chainId: 'chain-1',
    waiting,
    held: undefined,
    taxpayerId: 'taxpayer-1',
    certificate,
    authority,
    incidentAfterSeconds: 120,
    signRecords: true,
    now: NOW,
    ...patch,
  };
}

test('a chain in order becomes one message: its records rebuilt and written in chain order, for the one issuer, to its environment', async () => {
  const { failed, message } = await planMessage(input(chain(3)));
  expect(failed).toEqual([]);
  expect(message).toMatchObject({ chainId: 'chain-1', taxpayerId: 'taxpayer-1', endpoint: authority.simulatorUrl, incident: false });
  expect(message!.obligado).toEqual({ name: 'EMPRESA DE PRUEBA SL', nif: NIF });
  const sent = parseRegFactuRequest(Buffer.concat(message!.request).toString());
  expect(sent.records.map((r) => r.id.invoiceNumber)).toEqual(['F-1', 'F-2', 'F-3']);
  expect(sent.records.map((r) => r.hash)).toEqual(chain(3).map((r) => r.hash));

  const production = await planMessage(input(chain(1, () => ({ isProduction: true }))));
  expect(production.message!.endpoint).toMatch(/\/production\/wlpl\//);
});

test('a scenario record goes to the simulator’s scenario service, which is told its scenario beside the XML, never in it', async () => {
  const { message } = await planMessage(input(chain(1, () => ({ sandboxScenario: 'rejected:1100' }))));
  expect(message).toMatchObject({
    endpoint: 'https://sim.beside:8443/scenarios/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
    scenario: 'rejected:1100',
  });
  expect(Buffer.concat(message!.request).toString()).not.toMatch(/rejected|1100/);
  expect((await planMessage(input(chain(1)))).message!.scenario).toBeUndefined();
});

test('nothing overtakes a record waiting for the user: earlier records go, later ones wait with waiting_for_earlier_record', async () => {
  const rows = chain(5);
  const { failed, message } = await planMessage(input([rows[0], rows[1], rows[3], rows[4]], { held: { id: 'inv-3', chainSeq: 3 } }));
  expect(message!.records.map((r) => r.invoiceId)).toEqual(['inv-1', 'inv-2']);
  expect(failed.map((f) => [f.invoiceId, f.status, f.cause])).toEqual([
    ['inv-4', 'error', 'waiting_for_earlier_record'],
    ['inv-5', 'error', 'waiting_for_earlier_record'],
  ]);
  expect(failed[0].nextAttemptAt).toBeNull();
});

test('a record whose row no longer hashes to its huella is never sent: it and everything after it wait, the records before it go', async () => {
  const rows = chain(4);
  rows[2] = { ...rows[2], invoiceNumber: 'F-3-EDITED' };
  const { failed, message } = await planMessage(input(rows));
  expect(message!.records.map((r) => r.invoiceId)).toEqual(['inv-1', 'inv-2']);
  expect(failed.map((f) => [f.invoiceId, f.cause])).toEqual([
    ['inv-3', 'record_mismatch'],
    ['inv-4', 'waiting_for_earlier_record'],
  ]);
  expect(failed[0].lastError).toMatch(/not to the stored huella/);
});

test('without a certificate or a taxpayer nothing is sent and every record says why', async () => {
  const noCertificate = await planMessage(
    input(chain(2), { certificate: { problem: 'certificate_expired', reason: 'the certificate expired on 2026-01-01' } }),
  );
  expect(noCertificate.message).toBeUndefined();
  expect(noCertificate.failed.map((f) => [f.invoiceId, f.cause, f.lastError])).toEqual([
    ['inv-1', 'certificate_expired', 'the certificate expired on 2026-01-01'],
    ['inv-2', 'certificate_expired', 'the certificate expired on 2026-01-01'],
  ]);
  const noTaxpayer = await planMessage(input(chain(1), { taxpayerId: undefined }));
  expect(noTaxpayer.failed.map((f) => f.cause)).toEqual(['taxpayer_missing']);
});

test('under a certificate the authority suspended, nothing is sent until an operator resumes it, and every record says so', async () => {
  const stopped = await planMessage(input(chain(2), { stopped: { code: 4141, since: NOW } }));
  expect(stopped.message).toBeUndefined();
  expect(stopped.failed.map((f) => [f.invoiceId, f.status, f.cause, f.nextAttemptAt])).toEqual([
    ['inv-1', 'error', 'sender_stopped', null],
    ['inv-2', 'error', 'sender_stopped', null],
  ]);
  expect(stopped.failed[0].lastError).toMatch(/suspended its access \(4141\); an operator must resume it/);
});

test('Incidencia = S once the message is late: a record older than the tolerance, or one an earlier attempt already carried', async () => {
  expect((await planMessage(input(chain(2)))).message!.incident).toBe(false);
  const old = chain(2, (seq) => (seq === 1 ? { generatedAt: new Date(NOW.getTime() - 121_000) } : {}));
  expect((await planMessage(input(old))).message!.incident).toBe(true);
  const retried = chain(2, (seq) => (seq === 2 ? { sendAttempts: 1 } : {}));
  const message = (await planMessage(input(retried))).message!;
  expect(message.incident).toBe(true);
  expect(Buffer.concat(message.request).toString()).toContain('<sum1:Incidencia>S</sum1:Incidencia>');
});

describe('signatures', () => {
  const RECORD = /<sum1:RegistroAnulacion [\s\S]*?<\/sum1:RegistroAnulacion>/g;
  /** What is kept of each record signed for the message: its bytes, as text. */
  const signedTexts = (message: PreparedMessage) => message.signed.map((s) => ({ invoiceId: s.invoiceId, xml: s.xml.toString() }));

  test('each record never signed is signed with the certificate it goes with, and the message embeds those very bytes', async () => {
    const { message } = await planMessage(input(chain(2)));
    expect(message!.signed.map((s) => s.invoiceId)).toEqual(['inv-1', 'inv-2']);
    expect(Buffer.concat(message!.request).toString().match(RECORD)).toEqual(signedTexts(message!).map((s) => s.xml));
    for (const { xml } of signedTexts(message!)) {
      expect(verifyRecordSignature(xml)).toMatchObject({ status: 'valid', signingTime: NOW.toISOString() });
    }
  });

  test('a full window of records and more: each signed as itself, in chain order', async () => {
    const { message } = await planMessage(input(chain(9)));
    expect(message!.signed.map((s) => s.invoiceId)).toEqual(chain(9).map((r) => r.id));
    expect(Buffer.concat(message!.request).toString().match(RECORD)).toEqual(signedTexts(message!).map((s) => s.xml));
    signedTexts(message!).forEach(({ xml }, i) => {
      expect(xml).toContain(`<sum1:NumSerieFacturaAnulada>F-${i + 1}<`);
      expect(verifyRecordSignature(xml)).toMatchObject({ status: 'valid' });
    });
  });

  test('a record signed before goes with its stored bytes, never a second signature; with signing off, new records go unsigned', async () => {
    const first = signedTexts((await planMessage(input(chain(2)))).message!)[0].xml;
    const rows = chain(2, (seq) => (seq === 1 ? { signedXml: first } : {}));
    const later = (await planMessage(input(rows, { now: new Date(NOW.getTime() + 60_000) }))).message!;
    expect(later.signed.map((s) => s.invoiceId)).toEqual(['inv-2']);
    expect(Buffer.concat(later.request).toString().match(RECORD)![0]).toBe(first);

    const off = (await planMessage(input(rows, { signRecords: false }))).message!;
    expect(off.signed).toEqual([]);
    expect(
      Buffer.concat(off.request)
        .toString()
        .match(RECORD)!
        .map((r) => r.includes('<ds:Signature')),
    ).toEqual([true, false]);
  });

  test('the request is stored with each signed record by its mark (its bytes are kept once) and reads back as it went', async () => {
    const first = signedTexts((await planMessage(input(chain(2)))).message!)[0].xml;
    const rows = chain(3, (seq) => (seq === 1 ? { signedXml: first } : {}));
    const message = (await planMessage(input(rows))).message!;
    expect(message.storedRequestXml).not.toContain('<ds:Signature');
    const kept = new Map([[rows[0].id, first], ...signedTexts(message).map((s) => [s.invoiceId, s.xml] as const)]);
    expect(requestXmlAsSent(message.storedRequestXml, kept)).toBe(Buffer.concat(message.request).toString());

    // Records never signed (signing off) are stored inline: nothing else keeps their bytes.
    const off = (await planMessage(input(rows, { signRecords: false }))).message!;
    expect(off.storedRequestXml.match(RECORD)!.length).toBe(2);
    expect(requestXmlAsSent(off.storedRequestXml, new Map([[rows[0].id, first]]))).toBe(Buffer.concat(off.request).toString());
  });

  test('stored signed bytes that are not the record rebuilt from its row are never sent', async () => {
    const signed = signedTexts((await planMessage(input(chain(1)))).message!)[0].xml;
    const rows = chain(2, (seq) =>
      seq === 1 ? { signedXml: signed.replace('<sum1:NumSerieFacturaAnulada>F-1<', '<sum1:NumSerieFacturaAnulada>F-9<') } : {},
    );
    const { failed, message } = await planMessage(input(rows));
    expect(message).toBeUndefined();
    expect(failed.map((f) => [f.invoiceId, f.cause])).toEqual([
      ['inv-1', 'record_mismatch'],
      ['inv-2', 'waiting_for_earlier_record'],
    ]);
  });
});
