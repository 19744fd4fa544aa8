/**
 * A RegistroAlta exactly as it is hashed and sent: every value is the literal the XML carries
 * (dates dd-mm-yyyy, amounts with two decimals such as "12.10" or "-5.00", rates such as "21.00").
 * Built once from the stored invoice; a resend rebuilds the same values, never new ones.
 */
export type InvoiceType = 'F1' | 'F2' | 'F3' | 'R1' | 'R2' | 'R3' | 'R4' | 'R5';
export type TaxType = '01' | '02' | '03' | '05';
export type YesNo = 'S' | 'N';
/** L6 EmitidaPorTerceroODestinatario: D recipient, T third party. */
export type IssuedBy = 'D' | 'T';

export interface InvoiceId {
  issuerNif: string;
  invoiceNumber: string;
  /** dd-mm-yyyy */
  invoiceDate: string;
}

/** A person or entity as the record identifies it (PersonaFisicaJuridicaType): a Spanish NIF, or IDOtro. */
export type RecordRecipient =
  { name: string; nif: string } | { name: string; country?: string; idType: '02' | '03' | '04' | '05' | '06' | '07'; id: string };

export interface RecordLine {
  /** Impuesto; always written. */
  tax: TaxType;
  /** ClaveRegimen; absent only for tax 02/05 where the authority allows it. */
  regime?: string;
  /** CalificacionOperacion (S1, S2, N1, N2) xor OperacionExenta (E1..E8). */
  qualification?: 'S1' | 'S2' | 'N1' | 'N2';
  exemption?: 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6' | 'E7' | 'E8';
  /** TipoImpositivo, e.g. "21.00"; absent for N1/N2/exempt lines. */
  rate?: string;
  /** BaseImponibleOimporteNoSujeto */
  base: string;
  /** BaseImponibleACoste: the cost base of regime 06 (groups of entities), or of IPSI / other taxes. */
  costBase?: string;
  /** CuotaRepercutida */
  taxAmount?: string;
  surchargeRate?: string;
  surchargeAmount?: string;
}

export interface SistemaInformatico {
  NombreRazon: string;
  NIF: string;
  NombreSistemaInformatico: string;
  IdSistemaInformatico: string;
  Version: string;
  NumeroInstalacion: string;
  TipoUsoPosibleSoloVerifactu: YesNo;
  TipoUsoPosibleMultiOT: YesNo;
  IndicadorMultiplesOT: YesNo;
}

/** Encadenamiento/RegistroAnterior: the identifiers and huella of the record generated just before. */
export type ChainLink = InvoiceId & { hash: string };

/**
 * Subsanacion / RechazoPrevio of a RegistroAlta (operations matrix, AEAT "Validaciones y errores" v1.2.0 annex 6), chosen from the invoice's history. Written to
 * the XML but not part of the huella. Absent members are absent elements, the same as N.
 */
export interface RegistrationFlags {
  subsanacion?: boolean;
  /** S: a previous subsanación was rejected; X: the authority holds no record of this invoice. */
  rechazoPrevio?: 'S' | 'X';
}

export interface RegistrationRecord {
  /** Optional so records built before anulaciones existed stay valid; only a CancellationRecord must say what it is. */
  kind?: 'registration';
  id: InvoiceId;
  /** NombreRazonEmisor */
  issuerName: string;
  /** RefExterna: our invoice id, echoed back on each response line. */
  externalRef?: string;
  flags?: RegistrationFlags;
  invoiceType: InvoiceType;
  rectificationType?: 'S' | 'I';
  rectifiedInvoices?: InvoiceId[];
  /** FacturasSustituidas: the simplified invoices an F3 replaces. */
  substitutedInvoices?: InvoiceId[];
  /** ImporteRectificacion: BaseRectificada, CuotaRectificada and, when given, CuotaRecargoRectificado. */
  rectificationAmounts?: { base: string; tax: string; surcharge?: string };
  /** FechaOperacion, dd-mm-yyyy, only when it differs from the issue date. */
  operationDate?: string;
  description: string;
  /** FacturaSimplificadaArt7273 = S */
  simplifiedArt7273?: boolean;
  /** FacturaSinIdentifDestinatarioArt61d = S */
  withoutRecipientArt61d?: boolean;
  /** Macrodato = S when |total| >= 100,000,000.00 */
  macrodato?: boolean;
  /** EmitidaPorTerceroODestinatario: issued by the recipient (D) or by a third party (T) on the issuer's behalf. */
  issuedBy?: IssuedBy;
  /** Tercero: the third party that issued the invoice (with issuedBy T). */
  thirdParty?: RecordRecipient;
  recipients?: RecordRecipient[];
  /** Cupon = S */
  coupon?: boolean;
  lines: RecordLine[];
  /** CuotaTotal */
  totalTax: string;
  /** ImporteTotal */
  total: string;
  /** Encadenamiento: absent means PrimerRegistro = S. */
  previous?: ChainLink;
  system: SistemaInformatico;
  /** FechaHoraHusoGenRegistro, e.g. 2024-01-01T19:20:30+01:00 */
  generatedAt: string;
  /** Huella (uppercase hex SHA-256) */
  hash: string;
}
