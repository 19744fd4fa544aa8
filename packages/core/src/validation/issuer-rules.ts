import { recipientPath } from './invoice-type-rules';
import type { NormalizedInvoice, ValidationIssue } from './types';

/**
 * The rules that need the issuing taxpayer's NIF, known once its taxpayer is read (AEAT "Validaciones y errores"
 * v1.2.0 §3.1.3.4 and §3.1.3.6): no recipient identified by NIF (1193) and no third party (1188) may be the issuer.
 */
export function checkAgainstIssuer(invoice: NormalizedInvoice, issuerNif: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  invoice.recipients.forEach((r, index) => {
    if ('nif' in r && r.nif === issuerNif) {
      issues.push({
        field: `${recipientPath(invoice.recipients.length, index)}.nif`,
        code: 'recipient_is_issuer',
        message: "the recipient's NIF must differ from the issuing taxpayer's",
        authority_code: 1193,
      });
    }
  });
  const third = invoice.thirdParty;
  if (third && 'nif' in third && third.nif === issuerNif) {
    issues.push({
      field: 'third_party.nif',
      code: 'third_party_is_issuer',
      message: "the third party's NIF must differ from the issuing taxpayer's",
      authority_code: 1188,
    });
  }
  return issues;
}
