import type { CertificateWarning } from '@vf/contract';
import { modeAt } from '@vf/chain';
import type { TaxpayerView } from '@vf/db';

const DAY_MS = 24 * 60 * 60 * 1000;
export const EXPIRY_WARNING_DAYS = 30;

/** The taxpayer as clients see it: certificate facts, never its bytes or password. */
export function renderTaxpayer(t: TaxpayerView, now: Date) {
  const hasCertificate = t.certificateSource !== null;
  return {
    id: t.id,
    nif: t.nif,
    name: t.name,
    is_production: t.isProduction,
    environment: t.isProduction ? 'production' : 'sandbox',
    signing_mode: hasCertificate ? 'own_certificate' : 'social_collaborator',
    has_certificate: hasCertificate,
    certificate_path: t.certificatePath,
    certificate:
      hasCertificate && t.certificateNotAfter && t.certificateNotBefore
        ? {
            subject: t.certificateSubject,
            nif: t.certificateNif,
            not_before: t.certificateNotBefore.toISOString(),
            not_after: t.certificateNotAfter.toISOString(),
            expired: t.certificateNotAfter.getTime() <= now.getTime(),
            expires_in_days: Math.floor((t.certificateNotAfter.getTime() - now.getTime()) / DAY_MS),
            source: t.certificateSource,
          }
        : null,
    chain: { total_records: t.chainLength, last_hash: t.lastHash },
    ...renderMode(t, now),
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** The mode in force in the taxpayer's current environment, a declared end of VERI*FACTU, and the integrity alarm. */
function renderMode(t: TaxpayerView, now: Date) {
  const stored = { mode: t.operatingMode ?? 'verifactu', verifactuUntil: t.verifactuUntil, since: t.modeSince ?? t.createdAt };
  return {
    operating_mode: modeAt(stored, now),
    verifactu_ends_on: stored.mode === 'verifactu' ? stored.verifactuUntil : null,
    integrity_alarm: t.integrityAlarm,
  };
}

/** What a client should know after saving: the certificate is for someone else, or about to expire. */
export function certificateWarnings(t: TaxpayerView, now: Date): CertificateWarning[] {
  if (!t.certificateSource || !t.certificateNotAfter) return [];
  const warnings: CertificateWarning[] = [];
  if (!t.certificateNif) {
    warnings.push({
      code: 'certificate_nif_unknown',
      message: 'No NIF could be read from the certificate; check that it belongs to this taxpayer.',
    });
  } else if (t.certificateNif !== t.nif) {
    warnings.push({
      code: 'certificate_nif_mismatch',
      message: `The certificate belongs to NIF ${t.certificateNif}, not ${t.nif}; the authority accepts it only if that holder may act for this taxpayer.`,
    });
  }
  const days = Math.floor((t.certificateNotAfter.getTime() - now.getTime()) / DAY_MS);
  if (days < EXPIRY_WARNING_DAYS) {
    warnings.push({
      code: 'certificate_expires_soon',
      message: `The certificate expires in ${days} day(s), on ${t.certificateNotAfter.toISOString()}.`,
    });
  }
  if (t.certificateNotBefore && t.certificateNotBefore.getTime() > now.getTime()) {
    warnings.push({
      code: 'certificate_not_yet_valid',
      message: `The certificate is valid only from ${t.certificateNotBefore.toISOString()}.`,
    });
  }
  return warnings;
}
