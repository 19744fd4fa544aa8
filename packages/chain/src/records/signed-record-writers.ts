import type { SignedRecordForms, SignedRecordParts } from '@vf/db';
import { signatureFromParts, signatureOf } from '@vf/signing';
import { buildRecordXml } from '@vf/xml';
import { recordOfRow } from './rebuild-chain-record';

const SIGNATURE_ID = /^xmldsig-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Form 1: the record as buildRecordXml writes its row, signed as signRecord writes it (decision 0064). A form's
 * writer never changes once records are kept in it: a writer that writes a row differently is a new form, and the
 * old one keeps writing what it wrote (signed-record-forms.test.ts pins its bytes). Apart from the store's
 * registration (signed-record-forms.ts), so that the signature pool's threads load the writers alone.
 */
function formOne(row: Parameters<SignedRecordForms['rebuild']>[1], parts: SignedRecordParts) {
  const record = buildRecordXml(recordOfRow(row));
  return signatureFromParts(record, {
    id: `xmldsig-${parts.signatureId ?? row.id}`,
    signingTime: parts.signingTime.toISOString(),
    signingCertificate: parts.signingCertificate,
    certificate: parts.certificate,
  });
}

const unknownForm = (form: number, id: string) => new Error(`record ${id} is kept in form ${form}, which this version cannot write`);

/**
 * The store's writers, and for the signature pool's threads the canonical SignedInfo the same writer makes of a row and
 * parts: the bytes the RSA signature covers. It holds the digests of the record and of its signed properties, so the
 * signature verifies over it only if neither the row, nor the signing time, nor the certificate changed since signing.
 */
export const signedRecordForms: SignedRecordForms & {
  signedInfo(form: number, row: Parameters<SignedRecordForms['rebuild']>[1], parts: SignedRecordParts): Buffer;
} = {
  current: 1,

  partsOf(recordId, signed) {
    const read = signatureOf(signed);
    if (!read) return undefined;
    const id = SIGNATURE_ID.exec(read.parts.id);
    const signingTime = new Date(read.parts.signingTime);
    // Only what the parts write again as they were: anything else is compared and kept packed anyway.
    if (!id || Number.isNaN(signingTime.getTime()) || signingTime.toISOString() !== read.parts.signingTime) return undefined;
    const signatureValue = Buffer.from(read.value, 'base64');
    if (signatureValue.toString('base64') !== read.value) return undefined;
    return {
      signatureValue,
      signingTime,
      signatureId: id[1] === recordId ? null : id[1],
      certificate: read.parts.certificate,
      signingCertificate: read.parts.signingCertificate,
    };
  },

  rebuild(form, row, parts) {
    if (form === 1) return formOne(row, parts).complete(parts.signatureValue.toString('base64'));
    throw unknownForm(form, row.id);
  },

  signedInfo(form, row, parts) {
    if (form === 1) return formOne(row, parts).signedInfo;
    throw unknownForm(form, row.id);
  },
};
