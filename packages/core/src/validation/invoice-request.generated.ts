// Generated from the invoice request's joi schema (apps/api/src/invoices/invoice-request-schema.ts), the one
// description of the request's shape. Do not edit: change the schema, then run
// UPDATE_GENERATED=1 npx jest apps/api/src/invoices/invoice-request-types.test.ts

export interface InvoiceRequest {
  taxpayer_id: string;
  computer_system_id: string;
  invoice_number: string;
  /** YYYY-MM-DD */
  invoice_date: string;
  invoice_type: 'F1' | 'F2' | 'F3' | 'R1' | 'R2' | 'R3' | 'R4' | 'R5';
  description: string;
  /** YYYY-MM-DD */
  operation_date?: string | null;
  /** The recipient (one; or use recipients): a Spanish NIF, or a foreign identification (IDOtro). */
  recipient?: SpanishPartyRequest | ForeignPartyRequest | null;
  /** Several recipients (Destinatarios, up to 1,000), instead of recipient. */
  recipients?: (SpanishPartyRequest | ForeignPartyRequest)[] | null;
  /** EmitidaPorTerceroODestinatario: the invoice was issued by the recipient, or by a third party (give third_party). */
  issued_by?: 'recipient' | 'third_party' | null;
  /** Tercero: the third party that issued the invoice on the issuer’s behalf, with issued_by third_party: a Spanish NIF, or a foreign identification (IDOtro). */
  third_party?: SpanishPartyRequest | ForeignPartyRequest | null;
  /** FacturaSimplificadaArt7273: a simplified invoice under arts. 7.2 and 7.3 RD 1619/2012 (F1, F3, R1-R4). */
  simplified_art_72_73?: boolean | null;
  /** FacturaSinIdentifDestinatarioArt61d: an invoice without identified recipient, art. 6.1.d RD 1619/2012 (F2, R5). */
  without_recipient_art_61d?: boolean | null;
  /** Cupon (R1 and R5 only). */
  coupon?: boolean | null;
  /** Corrective invoices: S substitution, I differences (default). */
  rectification_type?: 'S' | 'I' | null;
  /** Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string. */
  rectified_base_amount?: number | string | null;
  /** Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string. */
  rectified_tax_amount?: number | string | null;
  /** CuotaRecargoRectificado: with rectification_type S. */
  rectified_surcharge_amount?: number | string | null;
  /** The invoices a corrective invoice (R1-R5) corrects. */
  corrected_invoices?: InvoiceReferenceRequest[] | null;
  /** FacturasSustituidas: the simplified invoices an F3 replaces. */
  substituted_invoices?: InvoiceReferenceRequest[] | null;
  breakdown: BreakdownLineRequest[];
  /** Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string. */
  total_amount: number | string;
  /** Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string. */
  total_tax_amount: number | string;
}

export interface SpanishPartyRequest {
  name: string;
  nif: string;
}

export interface ForeignPartyRequest {
  name: string;
  /** Required unless id_type is 02 (EU VAT number), whose prefix names the country. */
  country?: string;
  /** IDType: 02 EU VAT number, 03 passport, 04-06 other documents, 07 not in the census. */
  id_type: string;
  id: string;
}

export interface InvoiceReferenceRequest {
  invoice_number: string;
  /** YYYY-MM-DD */
  invoice_date: string;
}

export interface BreakdownLineRequest {
  /** Impuesto: 01 IVA, 02 IPSI, 03 IGIC, 05 other. */
  tax_type?: string | null;
  /** ClaveRegimen. */
  regime_type?: string | null;
  /** CalificacionOperacion (S1, S2, N1, N2) or OperacionExenta (E1-E8). */
  operation_type?: string | null;
  /** Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string. */
  base_amount: number | string;
  /** BaseImponibleACoste: regime 06 (group of entities), or IPSI / other taxes. */
  cost_base_amount?: number | string | null;
  tax_rate?: number | string | null;
  /** Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string. */
  tax_amount?: number | string | null;
  surcharge_rate?: number | string | null;
  /** Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string. */
  surcharge_amount?: number | string | null;
}

/** Each object’s fields, as the schema names them. */
export const REQUEST_FIELDS = {
  InvoiceRequest: [
    'taxpayer_id',
    'computer_system_id',
    'invoice_number',
    'invoice_date',
    'invoice_type',
    'description',
    'operation_date',
    'recipient',
    'recipients',
    'issued_by',
    'third_party',
    'simplified_art_72_73',
    'without_recipient_art_61d',
    'coupon',
    'rectification_type',
    'rectified_base_amount',
    'rectified_tax_amount',
    'rectified_surcharge_amount',
    'corrected_invoices',
    'substituted_invoices',
    'breakdown',
    'total_amount',
    'total_tax_amount',
  ],
  SpanishPartyRequest: ['name', 'nif'],
  ForeignPartyRequest: ['name', 'country', 'id_type', 'id'],
  InvoiceReferenceRequest: ['invoice_number', 'invoice_date'],
  BreakdownLineRequest: [
    'tax_type',
    'regime_type',
    'operation_type',
    'base_amount',
    'cost_base_amount',
    'tax_rate',
    'tax_amount',
    'surcharge_rate',
    'surcharge_amount',
  ],
} as const;

/** The most characters each text of an object may have. */
export const REQUEST_MAX_CHARACTERS = {
  InvoiceRequest: { invoice_number: 60, description: 500 },
  SpanishPartyRequest: { name: 120, nif: 20 },
  ForeignPartyRequest: { name: 120, id_type: 2, id: 20 },
  InvoiceReferenceRequest: { invoice_number: 60 },
  BreakdownLineRequest: { tax_type: 2, regime_type: 2, operation_type: 2 },
} as const;

/** Each object’s required fields, with the authority’s number for leaving one out (null where it has none). */
export const REQUEST_REQUIRED = {
  InvoiceRequest: {
    taxpayer_id: null,
    computer_system_id: null,
    invoice_number: 4102,
    invoice_date: 4102,
    invoice_type: 4102,
    description: 4102,
    breakdown: 4102,
    total_amount: 4102,
    total_tax_amount: 4102,
  },
  SpanishPartyRequest: { name: 4102, nif: null },
  ForeignPartyRequest: { name: 4102, id_type: 4102, id: 4102 },
  InvoiceReferenceRequest: { invoice_number: 4102, invoice_date: 4102 },
  BreakdownLineRequest: { base_amount: 4102 },
} as const;

/** Each object’s code lists: the values a code may take, as a refusal names them. */
export const REQUEST_CODES = {
  InvoiceRequest: {
    invoice_type: { values: ['F1', 'F2', 'F3', 'R1', 'R2', 'R3', 'R4', 'R5'], words: 'F1, F2, F3, R1, R2, R3, R4 or R5' },
    issued_by: { values: ['recipient', 'third_party'], words: 'recipient or third_party' },
    rectification_type: { values: ['S', 'I'], words: 'S (substitution) or I (differences)' },
  },
  SpanishPartyRequest: {},
  ForeignPartyRequest: {},
  InvoiceReferenceRequest: {},
  BreakdownLineRequest: {},
} as const;

/** How each field that is one value is read: its form. */
export const REQUEST_FORMS = {
  InvoiceRequest: {
    taxpayer_id: 'uuid',
    computer_system_id: 'uuid',
    invoice_number: 'invoice_number',
    invoice_date: 'date',
    invoice_type: 'code',
    description: 'text',
    operation_date: 'date',
    issued_by: 'code',
    simplified_art_72_73: 'flag',
    without_recipient_art_61d: 'flag',
    coupon: 'flag',
    rectification_type: 'code',
    rectified_base_amount: 'amount',
    rectified_tax_amount: 'amount',
    rectified_surcharge_amount: 'amount',
    total_amount: 'amount',
    total_tax_amount: 'amount',
  },
  SpanishPartyRequest: { name: 'text', nif: 'text' },
  ForeignPartyRequest: { name: 'text', country: 'text', id_type: 'text', id: 'text' },
  InvoiceReferenceRequest: { invoice_number: 'invoice_number', invoice_date: 'date' },
  BreakdownLineRequest: {
    tax_type: 'text',
    regime_type: 'text',
    operation_type: 'text',
    base_amount: 'amount',
    cost_base_amount: 'amount',
    tax_rate: 'rate',
    tax_amount: 'amount',
    surcharge_rate: 'rate',
    surcharge_amount: 'amount',
  },
} as const;

/** The authority’s number for a value outside a field’s form (its list, length or calendar; an amount’s digits), where it has one. */
export const REQUEST_INVALID_CODES = {
  InvoiceRequest: {
    invoice_number: 1104,
    invoice_date: 1105,
    invoice_type: 1106,
    operation_date: 1145,
    issued_by: 1151,
    simplified_art_72_73: 1136,
    without_recipient_art_61d: 1184,
    coupon: 1157,
    rectification_type: 1107,
    total_amount: 1267,
    total_tax_amount: 1266,
  },
  SpanishPartyRequest: {},
  ForeignPartyRequest: { id: 1222 },
  InvoiceReferenceRequest: { invoice_number: 1104, invoice_date: 1105 },
  BreakdownLineRequest: {},
} as const;

/** Each list’s fewest and most entries (each entry an object), with the authority’s number for a list below or above them (null where it has none). */
export const REQUEST_LISTS = {
  InvoiceRequest: {
    recipients: { min: 1, max: 1000, tooFew: null, tooMany: 4113 },
    corrected_invoices: { min: 0, max: 1000, tooFew: null, tooMany: 4113 },
    substituted_invoices: { min: 0, max: 1000, tooFew: null, tooMany: 4113 },
    breakdown: { min: 1, max: 12, tooFew: 4102, tooMany: 4113 },
  },
  SpanishPartyRequest: {},
  ForeignPartyRequest: {},
  InvoiceReferenceRequest: {},
  BreakdownLineRequest: {},
} as const;
