import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { postSoapEnvelope } from '@vf/authority-client';
import {
  computeCancellationHash,
  computeRegistrationHash,
  correctionFlags,
  formatGeneratedAt,
  isValidIsoDate,
  validateInvoiceRequest,
  type ChainRecord,
  type RecordHistoryEntry,
} from '@vf/core';
import { f1Request } from '@vf/core/testing';
import { systemSnapshot } from '@vf/chain';
import { FULL_BATCH } from '@vf/db';
import { buildConsultaRequest, parseRegFactuRequest, SCHEMA_DIR } from '@vf/xml';
import { systemCreateSchema } from '../../../systems/system-schemas';
import { taxpayerCreateSchema } from '../../../taxpayers/taxpayer-schemas';
import { TODAY } from './checked-locally';
import type { ServiceRecords } from './service-records';

/** Codes the service never gives the authority cause for, and the check that shows why. */
export interface ConstructionProof {
  codes: number[];
  why: string;
  proof(s: ServiceRecords): void | Promise<void>;
}

/** Every text value of an element of the message, in document order. */
const values = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<\\w+:${name}>([^<]*)</\\w+:${name}>`, 'g'))].map((m) => m[1]);
const elements = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<\\w+:${name}>([\\s\\S]*?)</\\w+:${name}>`, 'g'))].map((m) => m[1]);
const refused = (schema: { validate(v: unknown): { error?: unknown } }, body: Record<string, unknown>) =>
  schema.validate(body).error !== undefined;
const system = {
  vendor_name: 'Proveedor SL',
  vendor_nif: 'B85905495',
  name: 'Facturador',
  version: '1.0',
  installation_number: 'INST-1',
};

function expectTrue(condition: boolean, what: string): void {
  if (!condition) throw new Error(`not true: ${what}`);
}

const previousOf = (records: ChainRecord[], i: number) => (i === 0 ? undefined : records[i - 1]);

export const BY_CONSTRUCTION: ConstructionProof[] = [
  {
    codes: [4136, 4137],
    why: 'messages are written by one builder that puts one RegistroAlta or RegistroAnulacion in each RegistroFactura, valid against the schema',
    proof: (s) => {
      expectTrue(s.verdict.valid, `schema-valid: ${s.verdict.errors.join('; ')}`);
      expectTrue(elements(s.message, 'RegistroFactura').length === s.records.length, 'one RegistroFactura per record');
    },
  },
  {
    codes: [4106],
    why: 'dates are written dd-mm-yyyy from calendar dates the validator checked',
    proof: (s) => {
      const dates = ['FechaExpedicionFactura', 'FechaExpedicionFacturaAnulada', 'FechaOperacion'].flatMap((n) => values(s.message, n));
      expectTrue(dates.length > s.records.length, 'dates found');
      for (const d of dates) expectTrue(/^\d{2}-\d{2}-\d{4}$/.test(d) && isValidIsoDate(d.split('-').reverse().join('-')), d);
    },
  },
  {
    codes: [1244, 1268],
    why: 'FechaHoraHusoGenRegistro is written to the second with a ±hh:mm offset (Madrid time), never fractions or Z',
    proof: (s) => {
      const winterAndSummer = [new Date('2026-01-15T10:20:30.999Z'), new Date('2026-07-15T10:20:30Z')].map(formatGeneratedAt);
      for (const t of [...values(s.message, 'FechaHoraHusoGenRegistro'), ...winterAndSummer])
        expectTrue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/.test(t), t);
    },
  },
  {
    codes: [1247, 1263],
    why: 'TipoHuella is always 01 (SHA-256), the only algorithm there is',
    proof: (s) =>
      expectTrue(
        values(s.message, 'TipoHuella').every((v) => v === '01') && values(s.message, 'TipoHuella').length === s.records.length,
        'TipoHuella 01',
      ),
  },
  {
    codes: [1262, 1292],
    why: 'the huella is a SHA-256 written as 64 uppercase hexadecimal characters',
    proof: (s) => {
      for (const r of s.records) expectTrue(/^[0-9A-F]{64}$/.test(r.hash), r.hash);
    },
  },
  {
    codes: [2000],
    why: 'the huella is computed over the very literals that are sent, and the worker recomputes it from the stored row before sending',
    proof: (s) => {
      parseRegFactuRequest(s.message).records.forEach((r) => {
        const fields = { ...r.id, previousHash: r.previous?.hash, generatedAt: r.generatedAt };
        const huella =
          r.kind === 'cancellation'
            ? computeCancellationHash(fields)
            : computeRegistrationHash({ ...fields, invoiceType: r.invoiceType, totalTax: r.totalTax, total: r.total });
        expectTrue(huella === r.hash, `${r.id.invoiceNumber} hashes to what it carries`);
      });
    },
  },
  {
    codes: [1269, 1174, 1175, 1291, 2002, 2003],
    why: 'Encadenamiento/RegistroAnterior is the previous record of the chain as stored: its identifiers and its own huella',
    proof: (s) => {
      s.records.forEach((r, i) => {
        const previous = previousOf(s.records, i);
        if (!previous) return expectTrue(r.previous === undefined, 'the first record has no RegistroAnterior');
        expectTrue(JSON.stringify(r.previous) === JSON.stringify({ ...previous.id, hash: previous.hash }), `link ${i}`);
        expectTrue(/^[0-9A-F]{64}$/.test(r.previous!.hash), 'previous huella is 64 hex');
      });
    },
  },
  {
    codes: [2008],
    why: "a record's huella includes the previous one, so the two cannot be equal",
    proof: (s) =>
      s.records.forEach((r) => expectTrue(r.previous?.hash !== r.hash, `${r.id.invoiceNumber}: own huella differs from the previous`)),
  },
  {
    codes: [1264, 1274],
    why: 'PrimerRegistro is written only for the first record of a chain, and only as S',
    proof: (s) => {
      expectTrue(JSON.stringify(values(s.message, 'PrimerRegistro')) === '["S"]', 'one PrimerRegistro=S');
      expectTrue(s.message.indexOf('PrimerRegistro') < s.message.indexOf('RegistroAnterior'), 'on the first record');
    },
  },
  {
    codes: [1265],
    why: 'TipoFactura is one of the two-character codes of its list, checked on the request (1106)',
    proof: (s) => {
      const types = values(s.message, 'TipoFactura');
      expectTrue(types.length > 0 && types.every((t) => /^(F[1-3]|R[1-5])$/.test(t)), types.join());
    },
  },
  {
    codes: [1251],
    why: 'IDVersion is always 1.0',
    proof: (s) =>
      expectTrue(
        values(s.message, 'IDVersion').length === s.records.length && values(s.message, 'IDVersion').every((v) => v === '1.0'),
        '1.0',
      ),
  },
  {
    codes: [1108, 1120, 1154, 1172, 1219],
    why: "every record of a message is its taxpayer's (one chain per message): IDEmisorFactura, and that of the invoices it corrects or replaces, is the header's NIF",
    proof: (s) => {
      const nifs = [...values(s.message, 'IDEmisorFactura'), ...values(s.message, 'IDEmisorFacturaAnulada')];
      expectTrue(nifs.length > s.records.length && nifs.every((n) => n === s.taxpayer.nif), 'every IDEmisorFactura is the taxpayer');
      expectTrue(values(s.message, 'NIF')[0] === s.taxpayer.nif, 'the header carries it');
    },
  },
  {
    codes: [4109, 4115, 4116],
    why: "the header's NIF is the taxpayer's, whose format and check character are verified when the taxpayer is saved",
    proof: () => {
      expectTrue(refused(taxpayerCreateSchema, { nif: '89890001A', name: 'X' }), 'wrong check character refused');
      expectTrue(!refused(taxpayerCreateSchema, { nif: '89890001K', name: 'X' }), 'valid NIF accepted');
    },
  },
  {
    codes: [1282],
    why: 'the header always names the taxpayer: a taxpayer is saved with its name, and the name is written with the NIF',
    proof: (s) => {
      expectTrue(refused(taxpayerCreateSchema, { nif: '89890001K' }), 'a taxpayer needs a name');
      expectTrue(values(s.message, 'NombreRazon')[0] === s.taxpayer.name, 'header NombreRazon');
    },
  },
  {
    codes: [1176, 1221, 1223],
    why: "SistemaInformatico is identified by the producer's NIF, verified when the system is saved, never by IDOtro",
    proof: (s) => {
      expectTrue(refused(systemCreateSchema, { ...system, vendor_nif: 'B85905496' }), 'wrong vendor NIF refused');
      const blocks = elements(s.message, 'SistemaInformatico');
      expectTrue(
        blocks.length === s.records.length && blocks.every((b) => /<\w+:NIF>B85905495</.test(b) && !b.includes('IDOtro')),
        'NIF, no IDOtro',
      );
    },
  },
  {
    codes: [1177],
    why: 'IdSistemaInformatico is two uppercase letters (not Ñ) or digits, checked when the system is saved',
    proof: (s) => {
      for (const code of ['Ñ1', '1', 'ab', 'ABC']) expectTrue(refused(systemCreateSchema, { ...system, system_code: code }), code);
      expectTrue(
        values(s.message, 'IdSistemaInformatico').every((v) => /^[A-Z0-9]{2}$/.test(v)),
        'written as saved',
      );
    },
  },
  {
    codes: [1220],
    why: 'NombreSistemaInformatico has at most 30 characters, checked when the system is saved',
    proof: () => {
      expectTrue(refused(systemCreateSchema, { ...system, name: 'x'.repeat(31) }), '31 refused');
      // Characters as the schema counts them: 30 emoji are 30 characters, though 60 UTF-16 units.
      expectTrue(!refused(systemCreateSchema, { ...system, name: '\u{1F9FE}'.repeat(30) }), '30 emoji accepted');
    },
  },
  {
    codes: [1212, 1213, 1226],
    why: "the system's S/N flags are computed from booleans, never typed",
    proof: () => {
      const snapshot = (yes: boolean) =>
        systemSnapshot(
          {
            ...system,
            vendorName: 'P',
            vendorNif: 'B85905495',
            systemCode: 'FA',
            installationNumber: '1',
            onlySupportsVerifactu: yes,
            supportsMultipleTaxpayers: yes,
          },
          yes,
        );
      for (const yes of [true, false]) {
        const s = snapshot(yes);
        expectTrue(
          [s.TipoUsoPosibleSoloVerifactu, s.TipoUsoPosibleMultiOT, s.IndicadorMultiplesOT].every((v) => v === (yes ? 'S' : 'N')),
          'S/N',
        );
      }
    },
  },
  {
    codes: [1114],
    why: 'a corrective invoice without rectification_type is sent as TipoRectificativa I (differences)',
    proof: (s) => {
      const r3 = s.records.find((r) => r.kind !== 'cancellation' && r.invoiceType === 'R3');
      expectTrue(r3?.kind !== 'cancellation' && r3?.rectificationType === 'I', 'R3 without a type carries I');
    },
  },
  {
    codes: [1137, 1138, 1139],
    why: 'Macrodato is computed from the total: S from 100,000,000.00, absent below, never typed',
    proof: (s) => {
      const altas = s.records.flatMap((r) => (r.kind === 'cancellation' ? [] : [r]));
      for (const r of altas) expectTrue((r.macrodato === true) === Math.abs(Number(r.total)) >= 100_000_000, r.id.invoiceNumber);
      expectTrue(altas.some((r) => r.macrodato) && values(s.message, 'Macrodato').every((v) => v === 'S'), 'S only');
    },
  },
  {
    codes: [1196],
    why: 'one field, operation_type, holds CalificacionOperacion or OperacionExenta: a line has exactly one',
    proof: (s) => {
      for (const line of elements(s.message, 'DetalleDesglose'))
        expectTrue((line.includes('CalificacionOperacion>') ? 1 : 0) + (line.includes('OperacionExenta>') ? 1 : 0) === 1, line);
    },
  },
  {
    codes: [1153, 1161, 1171, 1275, 1276],
    why: "Subsanacion, RechazoPrevio and SinRegistroPrevio are chosen by the service from the invoice's history (operations matrix): a correction always has Subsanacion=S, and only S or X is written",
    proof: (s) => {
      const statuses = ['accepted', 'rejected', 'accepted_with_warnings'];
      const entry = (recordType: RecordHistoryEntry['recordType'], status: string): RecordHistoryEntry => ({ recordType, status });
      const histories = statuses.flatMap((a) =>
        statuses.flatMap((b) => [[entry('registration', a)], [entry('registration', a), entry('correction', b)]]),
      );
      for (const h of histories) {
        const d = correctionFlags(h);
        if (d.kind === 'flags') expectTrue(d.flags.subsanacion, JSON.stringify(h));
      }
      for (const alta of elements(s.message, 'RegistroAlta'))
        if (alta.includes('RechazoPrevio>')) expectTrue(alta.includes('Subsanacion>S<'), 'RechazoPrevio only with Subsanacion=S');
      expectTrue(
        ['Subsanacion', 'SinRegistroPrevio'].every((n) => values(s.message, n).every((v) => v === 'S')),
        'S only',
      );
      expectTrue(
        values(s.message, 'RechazoPrevio').every((v) => v === 'S' || v === 'X') && values(s.message, 'RechazoPrevio').length === 3,
        'S or X',
      );
    },
  },
  {
    codes: [4105, 4117, 4123, 4124],
    why: "the header never carries a Representante: the platform presents with its certificate, not as the taxpayer's adviser",
    proof: (s) => expectTrue(!s.message.includes('Representante') && !s.afterIncident.includes('Representante'), 'no Representante'),
  },
  {
    codes: [4120, 4122, 4125, 4126, 4129, 4130, 4131, 4133],
    why: 'the service only remits voluntarily as VERI*FACTU: never FechaFinVeriFactu, and never the fields of a requerimiento',
    proof: (s) => {
      for (const name of ['FechaFinVeriFactu', 'RemisionRequerimiento', 'RefRequerimiento', 'FinRequerimiento'])
        expectTrue(!s.message.includes(name) && !s.afterIncident.includes(name), name);
    },
  },
  {
    codes: [4121, 4127],
    why: 'RemisionVoluntaria is written only to say Incidencia=S, by a VERI*FACTU system sending to the VERI*FACTU service',
    proof: (s) => {
      expectTrue(!s.message.includes('RemisionVoluntaria'), 'no RemisionVoluntaria without an incident');
      expectTrue(JSON.stringify(values(s.afterIncident, 'Incidencia')) === '["S"]', 'Incidencia=S');
      expectTrue(
        values(s.message, 'TipoUsoPosibleSoloVerifactu').every((v) => v === 'S'),
        'the system works only as VERI*FACTU',
      );
    },
  },
  {
    codes: [4114],
    why: "a message carries at most 1,000 records: the sender's batch is the schema's limit",
    proof: () => {
      const xsd = readFileSync(join(SCHEMA_DIR, 'SuministroLR.xsd'), 'utf8');
      expectTrue(/name="RegistroFactura"[^>]*maxOccurs="1000"/.test(xsd) && FULL_BATCH === 1000, '1,000');
    },
  },
  {
    codes: [4119, 4138],
    why: 'messages are UTF-8, never empty, and text that UTF-8 XML cannot carry (control characters, lone surrogates) is refused at the door',
    proof: (s) => {
      expectTrue(s.message.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), 'declared UTF-8');
      expectTrue(Buffer.from(s.message, 'utf8').toString('utf8') === s.message, 'round-trips UTF-8');
      const lone = validateInvoiceRequest(f1Request({ description: 'a\uD800b' }), { today: TODAY });
      expectTrue(!lone.valid, 'a lone surrogate is refused');
      expectTrue(s.records.length > 0 && s.message.includes('RegistroFactura'), 'records in the message');
    },
  },
  {
    codes: [4135],
    why: "messages go with @vf/authority-client's postSoapEnvelope, which POSTs the envelope",
    proof: async () => {
      const server = createServer((req, res) => res.end(req.method));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      const exchange = await postSoapEnvelope(`http://127.0.0.1:${port}/`, '<x/>', { timeoutMs: 5_000 });
      await new Promise((resolve) => server.close(resolve));
      const method = exchange.kind === 'http' ? exchange.body : exchange.error;
      expectTrue(method === 'POST', `sent with ${method}`);
    },
  },
  {
    codes: [1128, 1214],
    why: 'the service has no billing agreement and no NumeroOTAlta: NumRegistroAcuerdoFacturacion, IdAcuerdoSistemaInformatico and NumeroOTAlta are never written',
    proof: (s) => {
      for (const name of ['NumRegistroAcuerdoFacturacion', 'IdAcuerdoSistemaInformatico', 'NumeroOTAlta'])
        expectTrue(!s.message.includes(name), name);
    },
  },
  {
    codes: [1224, 1225, 1227, 1228, 1229, 1230, 1231, 1258, 1259, 1273],
    why: 'an anulación is generated by the issuer itself: GeneradoPor and Generador, whose rules these are, are never written',
    proof: (s) => expectTrue(!s.message.includes('GeneradoPor') && !s.message.includes('Generador'), 'no Generador'),
  },
  {
    codes: [1248, 1249, 1250, 1261, 1270, 1271, 1272, 1285],
    why: "the service's Consulta asks as the issuer for one invoice in the month of its date: no IndicadorRepresentante, date range or system filter, and no Mostrar* flags",
    proof: () => {
      const xml = buildConsultaRequest({
        obligado: { name: 'X', nif: '89890001K' },
        period: { year: '2026', month: '11' },
        invoiceNumber: 'A-1',
        invoiceDate: '20-11-2026',
      });
      expectTrue(/<\w+:Periodo>(0[1-9]|1[0-2])</.test(xml), 'a month');
      for (const name of ['IndicadorRepresentante', 'RangoFechaExpedicion', 'SistemaInformatico', 'Mostrar', 'Destinatario'])
        expectTrue(!xml.includes(name), name);
    },
  },
  {
    codes: [1253],
    why: "RefExterna is the record's own id, an ASCII identifier well within 60 characters",
    proof: (s) =>
      expectTrue(
        values(s.message, 'RefExterna').length === s.records.length &&
          values(s.message, 'RefExterna').every((v) => /^[\w-]{1,60}$/.test(v)),
        'ids',
      ),
  },
  {
    codes: [3502],
    why: 'the VERI*FACTU service has no payments, collections or real-estate supplies: the only operations called are its two',
    proof: () => {
      const wsdl = readFileSync(join(SCHEMA_DIR, 'SistemaFacturacion.wsdl'), 'utf8');
      const operations = new Set([...wsdl.matchAll(/<wsdl:operation name="(\w+)"/g)].map((m) => m[1]));
      expectTrue(
        JSON.stringify([...operations].sort()) === '["ConsultaFactuSistemaFacturacion","RegFactuSistemaFacturacion"]',
        [...operations].join(),
      );
    },
  },
];
