import { f1Request } from '@vf/core/testing';

/**
 * An authority rule the service checks itself, before anything is stored: a request that breaks it, and where the
 * issue is reported. `today` is Madrid's date the rule is judged on; `issuerNif` the issuing taxpayer's, for the rules
 * that compare with it. Codes of the accepted-with-errors level come back as warnings (the invoice is registered).
 */
export interface LocalCheck {
  code: number;
  body: Record<string, unknown>;
  field: string;
  today?: string;
  issuerNif?: string;
}

/** Madrid's date the fixtures are judged on: the shared F1 is dated two days earlier (2026-11-20). */
export const TODAY = '2026-11-22';
export const ISSUER_NIF = '89890001K';

const s1 = (o: Record<string, unknown> = {}) => ({
  tax_type: '01',
  regime_type: '01',
  operation_type: 'S1',
  base_amount: 100,
  tax_rate: 21,
  tax_amount: 21,
  ...o,
});
const lines = (line: Record<string, unknown>, o: Record<string, unknown> = {}) => f1Request({ breakdown: [line], ...o });
const onDate = (date: string, line: Record<string, unknown>) => lines(line, { operation_date: date });
const surcharge = (rate: number, surchargeRate: number) =>
  s1({ regime_type: '18', tax_rate: rate, tax_amount: rate, surcharge_rate: surchargeRate, surcharge_amount: surchargeRate });
const corrective = (type: string, o: Record<string, unknown> = {}) =>
  f1Request({ invoice_type: type, corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-10-01' }], ...o });
const foreign = (country: string | undefined, idType: string, id: string) => ({ name: 'Foreign Ltd', country, id_type: idType, id });
const noRecipient = (type: string, o: Record<string, unknown> = {}) => f1Request({ invoice_type: type, recipient: undefined, ...o });
const publicBody = { name: 'Agencia Tributaria', nif: 'Q2826000H' };
const third = { name: 'Gestoría SL', nif: 'B63272603' };

/** The invoice itself: identification, dates, parties, types and flags (AEAT "Validaciones y errores" v1.2.0 §3.1.3). */
export const INVOICE_CHECKS: LocalCheck[] = [
  { code: 4102, body: f1Request({ description: undefined }), field: 'description' },
  { code: 4113, body: f1Request({ breakdown: Array(13).fill(s1({ base_amount: 1, tax_amount: 0.21 })) }), field: 'breakdown' },
  { code: 1100, body: f1Request({ total_tax_amount: 'veintiuno' }), field: 'total_tax_amount' },
  { code: 1266, body: f1Request({ total_tax_amount: '1234567890123' }), field: 'total_tax_amount' },
  { code: 1267, body: f1Request({ total_amount: '1234567890123.00' }), field: 'total_amount' },
  { code: 1104, body: f1Request({ invoice_number: 'A'.repeat(61) }), field: 'invoice_number' },
  { code: 1130, body: f1Request({ invoice_number: 'Nº 1' }), field: 'invoice_number' },
  { code: 1287, body: f1Request({ invoice_number: 'A<1>' }), field: 'invoice_number' },
  { code: 1105, body: f1Request({ invoice_date: '2026-02-30' }), field: 'invoice_date' },
  { code: 1106, body: f1Request({ invoice_type: 'F4' }), field: 'invoice_type' },
  { code: 1107, body: corrective('R1', { rectification_type: 'X' }), field: 'rectification_type' },
  { code: 1112, body: f1Request({ invoice_date: '2026-11-23' }), field: 'invoice_date' },
  { code: 1152, body: f1Request({ invoice_date: '2024-10-27' }), field: 'invoice_date' },
  { code: 1133, body: f1Request(), field: 'invoice_date', today: '2046-11-22' },
  { code: 1134, body: f1Request({ operation_date: '2005-01-01' }), field: 'operation_date' },
  { code: 1125, body: f1Request({ operation_date: '2028-01-01' }), field: 'operation_date' },
  { code: 1145, body: f1Request({ operation_date: '2026-13-01' }), field: 'operation_date' },
  { code: 1146, body: f1Request({ operation_date: '2026-11-21' }), field: 'operation_date' },
  { code: 1173, body: f1Request({ operation_date: '2026-12-01' }), field: 'operation_date' },
  { code: 1101, body: f1Request({ recipient: foreign('ZZ', '03', 'P1') }), field: 'recipient.country' },
  { code: 1102, body: f1Request({ recipient: foreign('FR', '01', 'P1') }), field: 'recipient.id_type' },
  { code: 1103, body: f1Request({ recipient: foreign('DE', '02', 'DE1234') }), field: 'recipient.id' },
  { code: 1111, body: f1Request({ recipient: foreign(undefined, '03', 'P1') }), field: 'recipient.country' },
  { code: 1122, body: f1Request({ recipient: foreign('FR', '02', 'DE123456789') }), field: 'recipient.id' },
  { code: 1123, body: f1Request({ recipient: { name: 'Cliente SL', nif: 'B85905496' } }), field: 'recipient.nif' },
  { code: 1126, body: f1Request({ recipient: foreign('FR', '07', '12345678Z') }), field: 'recipient.country' },
  { code: 1131, body: f1Request({ recipient: foreign('ES', '07', 'B85905495') }), field: 'recipient.id' },
  { code: 1290, body: f1Request({ recipient: foreign('ES', '07', '1234') }), field: 'recipient.id' },
  { code: 1222, body: f1Request({ recipient: foreign('FR', '03', 'x'.repeat(21)) }), field: 'recipient.id' },
  { code: 1234, body: f1Request({ recipient: foreign('ES', '04', 'X1') }), field: 'recipient.id_type' },
  { code: 1283, body: f1Request({ recipient: { nif: 'B85905495' } }), field: 'recipient.name' },
  { code: 1254, body: f1Request({ recipient: foreign('GB', '02', 'XI123456789'), operation_date: '2020-12-31' }), field: 'recipient.id' },
  { code: 1255, body: f1Request({ recipient: foreign('GB', '02', 'GB123456789') }), field: 'recipient.id' },
  { code: 1189, body: f1Request({ recipient: undefined }), field: 'recipient' },
  { code: 1190, body: f1Request({ invoice_type: 'F2' }), field: 'recipient' },
  { code: 1156, body: f1Request({ invoice_type: 'F2', recipient: foreign('FR', '02', 'FR12345678901') }), field: 'recipient.id_type' },
  { code: 1191, body: corrective('R3', { recipient: foreign('FR', '03', 'P1') }), field: 'recipient.id_type' },
  { code: 1233, body: corrective('R3', { recipient: foreign('ES', '03', 'P1') }), field: 'recipient.id_type' },
  { code: 1192, body: corrective('R2', { recipient: foreign('FR', '03', 'P1') }), field: 'recipient.id_type' },
  { code: 1193, body: f1Request({ recipient: { name: 'Yo mismo', nif: ISSUER_NIF } }), field: 'recipient.nif', issuerNif: ISSUER_NIF },
  { code: 1115, body: f1Request({ rectification_type: 'I' }), field: 'rectification_type' },
  {
    code: 1116,
    body: f1Request({ substituted_invoices: [{ invoice_number: 'T-1', invoice_date: '2026-11-01' }] }),
    field: 'substituted_invoices',
  },
  {
    code: 1117,
    body: f1Request({ corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-10-01' }] }),
    field: 'corrected_invoices',
  },
  { code: 1118, body: corrective('R1', { rectification_type: 'S' }), field: 'rectified_base_amount' },
  { code: 1119, body: corrective('R1', { rectified_tax_amount: 21 }), field: 'rectified_tax_amount' },
  { code: 1136, body: f1Request({ simplified_art_72_73: 'S' }), field: 'simplified_art_72_73' },
  { code: 1183, body: noRecipient('F2', { simplified_art_72_73: true }), field: 'simplified_art_72_73' },
  { code: 1184, body: noRecipient('F2', { without_recipient_art_61d: 'S' }), field: 'without_recipient_art_61d' },
  { code: 1185, body: f1Request({ without_recipient_art_61d: true }), field: 'without_recipient_art_61d' },
  { code: 1157, body: f1Request({ coupon: true }), field: 'coupon' },
  { code: 1151, body: f1Request({ issued_by: 'T' }), field: 'issued_by' },
  { code: 1155, body: f1Request({ third_party: third }), field: 'third_party' },
  { code: 1158, body: noRecipient('F2', { issued_by: 'recipient' }), field: 'recipient' },
  { code: 1159, body: f1Request({ issued_by: 'recipient', third_party: third }), field: 'third_party' },
  { code: 1186, body: f1Request({ issued_by: 'third_party' }), field: 'third_party' },
  { code: 1187, body: f1Request({ issued_by: 'T', third_party: third }), field: 'third_party' },
  {
    code: 1188,
    body: f1Request({ issued_by: 'third_party', third_party: { name: 'Yo mismo', nif: ISSUER_NIF } }),
    field: 'third_party.nif',
    issuerNif: ISSUER_NIF,
  },
  {
    code: 1211,
    body: f1Request({ issued_by: 'third_party', third_party: foreign('ES', '07', '12345678Z') }),
    field: 'third_party.id_type',
  },
  { code: 1232, body: f1Request({ issued_by: 'third_party', third_party: foreign('ES', '04', 'X1') }), field: 'third_party.id_type' },
  {
    code: 1150,
    body: noRecipient('F2', { breakdown: [s1({ base_amount: 2500, tax_amount: 525 })], total_amount: 3025 }),
    field: 'breakdown',
  },
  { code: 2005, body: f1Request({ total_amount: 150 }), field: 'total_amount' },
  { code: 2006, body: f1Request({ total_tax_amount: 40, total_amount: 140 }), field: 'total_tax_amount' },
];

/** Breakdown lines: codes, what each operation carries, rates and their periods, regimes (§3.1.3.15). */
export const LINE_CHECKS: LocalCheck[] = [
  { code: 1218, body: lines(s1({ tax_type: '04' })), field: 'breakdown[0].tax_type' },
  { code: 1245, body: lines(s1({ regime_type: undefined })), field: 'breakdown[0].regime_type' },
  {
    code: 2009,
    body: lines(s1({ tax_type: '02', regime_type: undefined, tax_rate: 4, tax_amount: 4 }), { total_amount: 104, total_tax_amount: 4 }),
    field: 'breakdown[0].regime_type',
  },
  { code: 1246, body: lines(s1({ regime_type: '99' })), field: 'breakdown[0].regime_type' },
  { code: 1260, body: lines(s1({ tax_type: '05' })), field: 'breakdown[0].regime_type' },
  { code: 1181, body: lines(s1({ operation_type: 'S9' })), field: 'breakdown[0].operation_type' },
  { code: 1182, body: lines({ regime_type: '01', operation_type: 'E9', base_amount: 100 }), field: 'breakdown[0].operation_type' },
  { code: 1195, body: lines(s1({ operation_type: undefined })), field: 'breakdown[0].operation_type' },
  { code: 1208, body: lines(s1({ tax_rate: undefined })), field: 'breakdown[0].tax_rate' },
  { code: 1142, body: lines(s1({ tax_amount: 50 })), field: 'breakdown[0].tax_amount' },
  { code: 1143, body: lines(s1({ tax_amount: -21 })), field: 'breakdown[0].tax_amount' },
  {
    code: 1197,
    body: noRecipient('F2', { breakdown: [s1({ operation_type: 'S2', tax_rate: 0, tax_amount: 0 })] }),
    field: 'breakdown[0].operation_type',
  },
  { code: 1198, body: lines(s1({ operation_type: 'S2', tax_amount: 0 })), field: 'breakdown[0].tax_rate' },
  {
    code: 1207,
    body: lines({ tax_type: '03', regime_type: '01', operation_type: 'N1', base_amount: 100, tax_amount: 7 }),
    field: 'breakdown[0].tax_amount',
  },
  { code: 1237, body: lines({ regime_type: '01', operation_type: 'N1', base_amount: 100, tax_rate: 21 }), field: 'breakdown[0].tax_rate' },
  { code: 1238, body: lines({ regime_type: '01', operation_type: 'E1', base_amount: 100, tax_rate: 0 }), field: 'breakdown[0].tax_rate' },
  {
    code: 1281,
    body: lines(s1({ operation_type: 'S2', tax_rate: 0, tax_amount: 0, surcharge_rate: 0, surcharge_amount: 0 })),
    field: 'breakdown[0].surcharge_rate',
  },
  { code: 1284, body: lines(s1({ surcharge_rate: 5.2 })), field: 'breakdown[0].surcharge_amount' },
  { code: 1289, body: lines({ regime_type: '01', operation_type: 'E5', base_amount: 100 }), field: 'breakdown[0].operation_type' },
  { code: 1124, body: lines(s1({ tax_rate: 12, tax_amount: 12 })), field: 'breakdown[0].tax_rate' },
  { code: 1132, body: lines(s1({ tax_rate: 16, tax_amount: 16 })), field: 'breakdown[0].tax_rate' },
  { code: 1194, body: lines(s1({ tax_rate: 5, tax_amount: 5 })), field: 'breakdown[0].tax_rate' },
  { code: 1235, body: lines(s1({ tax_rate: 2, tax_amount: 2 })), field: 'breakdown[0].tax_rate' },
  { code: 1236, body: lines(s1({ tax_rate: 7.5, tax_amount: 7.5 })), field: 'breakdown[0].tax_rate' },
  { code: 1127, body: lines(surcharge(21, 3)), field: 'breakdown[0].surcharge_rate' },
  { code: 1135, body: onDate('2012-06-01', surcharge(16, 1.4)), field: 'breakdown[0].surcharge_rate' },
  { code: 1160, body: onDate('2023-06-01', surcharge(5, 1.4)), field: 'breakdown[0].surcharge_rate' },
  { code: 1162, body: lines(surcharge(21, 1.4)), field: 'breakdown[0].surcharge_rate' },
  { code: 1163, body: lines(surcharge(10, 5.2)), field: 'breakdown[0].surcharge_rate' },
  { code: 1164, body: lines(surcharge(4, 1.4)), field: 'breakdown[0].surcharge_rate' },
  { code: 1165, body: onDate('2024-06-01', surcharge(0, 0.26)), field: 'breakdown[0].surcharge_rate' },
  { code: 1166, body: onDate('2024-11-01', surcharge(2, 0.5)), field: 'breakdown[0].surcharge_rate' },
  { code: 1167, body: onDate('2024-09-01', surcharge(5, 0.5)), field: 'breakdown[0].surcharge_rate' },
  { code: 1168, body: onDate('2022-12-01', surcharge(5, 0.62)), field: 'breakdown[0].surcharge_rate' },
  { code: 1169, body: onDate('2024-11-01', surcharge(7.5, 1.4)), field: 'breakdown[0].surcharge_rate' },
  { code: 1170, body: lines(surcharge(0, 0)), field: 'breakdown[0].surcharge_rate' },
  { code: 1277, body: onDate('2022-12-01', surcharge(0, 0)), field: 'breakdown[0].surcharge_rate' },
  { code: 1199, body: lines({ regime_type: '01', operation_type: 'E2', base_amount: 100 }), field: 'breakdown[0].operation_type' },
  { code: 1286, body: lines(s1({ regime_type: '02' })), field: 'breakdown[0].operation_type' },
  {
    code: 1200,
    body: lines(s1({ regime_type: '03', operation_type: 'S2', tax_rate: 0, tax_amount: 0 })),
    field: 'breakdown[0].operation_type',
  },
  { code: 1201, body: lines(s1({ regime_type: '04' })), field: 'breakdown[0].operation_type' },
  { code: 1202, body: lines(s1({ regime_type: '06' })), field: 'breakdown[0].cost_base_amount' },
  {
    code: 1209,
    body: lines(s1({ regime_type: '06', cost_base_amount: 80, tax_rate: undefined, tax_amount: undefined })),
    field: 'breakdown[0].tax_rate',
  },
  { code: 1140, body: lines(s1({ regime_type: '06', cost_base_amount: 80, tax_amount: -16.8 })), field: 'breakdown[0].tax_amount' },
  { code: 1144, body: lines(s1({ regime_type: '06', cost_base_amount: 80, tax_amount: 37.8 })), field: 'breakdown[0].tax_amount' },
  { code: 1257, body: lines(s1({ cost_base_amount: 80 })), field: 'breakdown[0].cost_base_amount' },
  { code: 1203, body: lines({ regime_type: '07', operation_type: 'N1', base_amount: 100 }), field: 'breakdown[0].operation_type' },
  { code: 1252, body: lines(s1({ regime_type: '08' })), field: 'breakdown[0].operation_type' },
  { code: 1205, body: lines(s1({ regime_type: '10' })), field: 'breakdown[0].operation_type' },
  { code: 1206, body: lines(s1({ regime_type: '11', tax_rate: 10, tax_amount: 10 })), field: 'breakdown[0].tax_rate' },
  { code: 1147, body: lines(s1({ regime_type: '14' }), { recipient: publicBody }), field: 'operation_date' },
  {
    code: 1148,
    body: lines(s1({ regime_type: '14' }), { invoice_type: 'F3', recipient: publicBody, operation_date: '2027-03-01' }),
    field: 'invoice_type',
  },
  { code: 1149, body: lines(s1({ regime_type: '14' }), { operation_date: '2027-03-01' }), field: 'recipient' },
  { code: 1293, body: lines(s1({ tax_type: '03', regime_type: '20', tax_rate: 7, tax_amount: 7 })), field: 'breakdown[0].operation_type' },
];
