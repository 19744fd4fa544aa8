import type { Request } from 'express';
import { html, type SafeHtml } from '../html/html';

// After a redirect the page says what happened; only these fixed texts can appear, never text from the URL.
const NOTICES: Record<string, string> = {
  taxpayer_created: 'Taxpayer created.',
  taxpayer_saved: 'Changes saved.',
  taxpayer_deleted: 'Taxpayer deleted.',
  certificate_saved: 'Certificate checked and saved. The platform will sign this taxpayer\'s messages with it.',
  certificate_removed: 'Certificate removed. This taxpayer now uses social-collaborator mode.',
  system_created: 'Computer system created.',
  system_saved: 'Changes saved.',
  system_deleted: 'Computer system deleted.',
  correction_queued: 'Corrección registrada y en cola para la AEAT. · Correction recorded and queued for the authority.',
  cancellation_queued: 'Anulación registrada y en cola para la AEAT. · Cancellation recorded and queued for the authority.',
  invoice_resent: 'Reenvío programado: el registro vuelve a la AEAT sin cambios. / Resend scheduled: the record goes to the authority again, unchanged.',
  invoice_not_resendable: 'Solo se puede reenviar un registro en error. / Only a record in error can be resent.',
};

export function noticeFrom(req: Request): SafeHtml {
  const text = NOTICES[String(req.query.notice ?? '')];
  return text ? html`<div class="notice notice--success" role="status"><p>${text}</p></div>` : html``;
}
