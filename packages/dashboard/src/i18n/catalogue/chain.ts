import type { Widen } from './widen';

/** The texts of a taxpayer's chain and its verification, in Spanish. */
export const esChain = {
  chain: {
    title: 'Cadena de {{name}}',
    heading: 'Cadena de huellas de {{name}}',
    allVerified_one:
      '<strong>{{formatted}} registro verificado.</strong> Cada huella se recalcula a partir de los valores de su registro, cada registro apunta al anterior y la cabeza de la cadena coincide con el último registro.',
    allVerified_other:
      '<strong>Los {{formatted}} registros verificados.</strong> Cada huella se recalcula a partir de los valores de su registro, cada registro apunta al anterior y la cabeza de la cadena coincide con el último registro.',
    brokenAt: 'La cadena está rota en el registro {{position}}',
    invoice: 'factura',
    verifiedBefore_one:
      '{{formatted}} registro anterior se verificó correctamente. No se ha cambiado nada; conserva los registros tal como están y contacta con soporte con este mensaje.',
    verifiedBefore_other:
      '{{formatted}} registros anteriores se verificaron correctamente. No se ha cambiado nada; conserva los registros tal como están y contacta con soporte con este mensaje.',
    state: 'Estado de la cadena',
    records: 'Registros',
    lastHash: 'Última huella',
    noneYet: 'ninguna aún',
    lastRecordAt: 'Último registro',
    sameAsApi: 'El mismo estado que devuelve la API en <code>GET /api/v1/chain/{{nif}}</code>.',
    verifyTitle: 'Verificar la cadena',
    verifyBody:
      'Recalcula la huella de cada registro a partir de sus valores guardados, comprueba cada enlace con el registro anterior y verifica la firma electrónica de cada registro tal como se envió, del primero al último. Indica el primer enlace roto, si lo hay, y cada firma no válida. En una cadena larga, limítalo a un tramo: verificar las firmas lleva unos 2 ms por registro.',
    rangeFrom: 'Desde el registro',
    rangeTo: 'Hasta el registro',
    rangeHint: 'Vacío: desde el primero / hasta el último.',
    signatureCounts: 'Firmas: {{valid}} válidas, {{invalid}} no válidas, {{missing}} registros enviados sin firma.',
    invalidSignature: 'Firma no válida en el registro {{position}}',
    verify: 'Verificar cadena',
    latest: 'Últimos registros',
    noRecords: 'Aún no hay registros.',
    colInvoice: 'Factura',
    colGenerated: 'Generado',
    colHash: 'Huella',
    colPrevious: 'Huella anterior',
    first: 'primer registro',
  },
} as const;

/** The same texts in English. */
export const enChain: Widen<typeof esChain> = {
  chain: {
    title: 'Chain of {{name}}',
    heading: 'Hash chain of {{name}}',
    allVerified_one:
      "<strong>All {{formatted}} record verified.</strong> Every hash recomputes from its record's values, every record points to the one before it, and the chain head matches the last record.",
    allVerified_other:
      "<strong>All {{formatted}} records verified.</strong> Every hash recomputes from its record's values, every record points to the one before it, and the chain head matches the last record.",
    brokenAt: 'The chain is broken at record {{position}}',
    invoice: 'invoice',
    verifiedBefore_one:
      '{{formatted}} record before it verified correctly. Nothing was changed; keep the records as they are and contact support with this message.',
    verifiedBefore_other:
      '{{formatted}} records before it verified correctly. Nothing was changed; keep the records as they are and contact support with this message.',
    state: 'Chain state',
    records: 'Records',
    lastHash: 'Last hash',
    noneYet: 'none yet',
    lastRecordAt: 'Last record at',
    sameAsApi: 'The same state the API returns at <code>GET /api/v1/chain/{{nif}}</code>.',
    verifyTitle: 'Verify the chain',
    verifyBody:
      'Recomputes the hash of every record from its stored values, checks each link to the record before it and verifies the electronic signature of each record as it was sent, from the first record to the last. It reports the first broken link, if any, and every invalid signature. On a long chain, check a range: verifying the signatures takes about 2 ms a record.',
    rangeFrom: 'From record',
    rangeTo: 'To record',
    rangeHint: 'Empty: from the first / to the last.',
    signatureCounts: 'Signatures: {{valid}} valid, {{invalid}} invalid, {{missing}} records sent unsigned.',
    invalidSignature: 'Invalid signature at record {{position}}',
    verify: 'Verify chain',
    latest: 'Latest records',
    noRecords: 'No records yet.',
    colInvoice: 'Invoice',
    colGenerated: 'Generated at',
    colHash: 'Hash',
    colPrevious: 'Previous hash',
    first: 'first record',
  },
};
