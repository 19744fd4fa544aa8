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
  cancellation_unconfirmed: 'No se ha anulado: marque la casilla de confirmación. · Not cancelled: tick the confirmation box.',
  cancellation_already: 'La factura ya está anulada. · The invoice is already cancelled.',
  cancellation_awaiting:
    'Aún no se puede anular: un registro de esta factura espera la respuesta de la AEAT. · Not yet: a record of this invoice is waiting for the authority\'s answer.',
  cancellation_other_environment:
    'La factura pertenece al otro entorno del contribuyente y ya no puede anularse aquí. · The invoice belongs to the taxpayer\'s other environment.',
  cancellation_refused: 'No se ha podido anular la factura. · The invoice could not be cancelled.',
};

export function noticeFrom(req: Request): SafeHtml {
  const text = NOTICES[String(req.query.notice ?? '')];
  return text ? html`<div class="notice notice--success" role="status"><p>${text}</p></div>` : html``;
}
