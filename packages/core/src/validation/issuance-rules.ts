import type { InvoiceType, IssuedBy } from '../registration-record';
import type { Read } from './field-readers';
import type { REQUEST_CODES } from './invoice-request.generated';
import type { IssueCollector } from './issue-collector';
import type { ParsedRecipient } from './read-recipient';

type IssuedByName = (typeof REQUEST_CODES.InvoiceRequest.issued_by.values)[number];

/** The schema's names for EmitidaPorTerceroODestinatario (list L6): D recipient, T third party. */
export const ISSUED_BY = { recipient: 'D', third_party: 'T' } as const satisfies Record<IssuedByName, IssuedBy>;

export interface IssuanceFacts {
  invoiceType: Read<InvoiceType>;
  /** Undefined when absent, null when given with a value outside the list. */
  issuedBy: Read<IssuedBy>;
  thirdParty: Read<ParsedRecipient>;
  recipients: Read<ParsedRecipient[]>;
  simplifiedArt7273: Read<boolean>;
  withoutRecipientArt61d: Read<boolean>;
  coupon: Read<boolean>;
}

/**
 * Who issued the invoice and the flags that qualify it (AEAT "Validaciones y errores" v1.2.0 §3.1.3.4 and §3.1.3.5):
 * EmitidaPorTerceroODestinatario with its Tercero or Destinatarios, FacturaSimplificadaArt7273,
 * FacturaSinIdentifDestinatarioArt61d and Cupon against the invoice type.
 */
export function checkIssuance(f: IssuanceFacts, issues: IssueCollector): void {
  checkThirdParty(f, issues);
  const type = f.invoiceType;
  if (!type) return;
  if (f.simplifiedArt7273 && !['F1', 'F3', 'R1', 'R2', 'R3', 'R4'].includes(type)) {
    issues.error(
      'simplified_art_72_73',
      'not_allowed_for_invoice_type',
      `simplified_art_72_73 can only be true on F1, F3 and R1 to R4 invoices, not ${type}.`,
      1183,
    );
  }
  if (f.withoutRecipientArt61d && type !== 'F2' && type !== 'R5') {
    issues.error(
      'without_recipient_art_61d',
      'not_allowed_for_invoice_type',
      `without_recipient_art_61d can only be true on F2 and R5 invoices, not ${type}.`,
      1185,
    );
  }
  if (f.coupon && type !== 'R1' && type !== 'R5') {
    issues.error('coupon', 'not_allowed_for_invoice_type', `coupon can only be true on R1 and R5 invoices, not ${type}.`, 1157);
  }
}

function checkThirdParty(f: IssuanceFacts, issues: IssueCollector): void {
  if (f.thirdParty !== undefined) {
    // The block is allowed only with issued_by third_party: absent (1155), recipient (1159), or a wrong value (1187).
    if (f.issuedBy === undefined) {
      issues.error('third_party', 'third_party_without_issued_by', 'third_party is only given with issued_by: third_party.', 1155);
    } else if (f.issuedBy === 'D') {
      issues.error(
        'third_party',
        'third_party_not_allowed',
        'issued_by is recipient: the recipient issued the invoice, so leave third_party out.',
        1159,
      );
    } else if (f.issuedBy === null) {
      issues.error('third_party', 'third_party_not_allowed', 'third_party is only allowed when issued_by is third_party.', 1187);
    }
  } else if (f.issuedBy === 'T') {
    issues.error('third_party', 'required', 'third_party is required when issued_by is third_party.', 1186);
  }
  if (f.issuedBy === 'D' && f.recipients === undefined) {
    issues.error('recipient', 'required', 'issued_by recipient needs the recipient who issued the invoice.', 1158);
  }
}
