import type { ScenarioName } from './scenario-catalogue';

/** What each scenario rehearses, in Spanish (first) and English: the catalogue's and the dashboard's words. */
export const SCENARIO_TEXTS: Readonly<Record<ScenarioName, { es: string; en: string }>> = {
  accepted: {
    es: 'La AEAT acepta el registro (Correcto).',
    en: 'The authority accepts the record (Correcto).',
  },
  accepted_with_errors: {
    es: 'La AEAT acepta el registro con errores (AceptadoConErrores) y el código indicado (2000-2011): la factura cuenta como registrada y se corrige después.',
    en: 'The authority accepts the record with errors (AceptadoConErrores) and the given code (2000-2011): the invoice counts as registered and is corrected later.',
  },
  rejected: {
    es: 'La AEAT rechaza el registro en su primer envío con el código de registro indicado; el servicio hace lo que su catálogo dice de ese código (rechazo, reintento o Consulta).',
    en: 'The authority refuses the record on its first send with the given record-level code; the service does what its catalogue says of that code (rejection, retry or Consulta).',
  },
  message_refused: {
    es: 'La AEAT rechaza el envío completo en el primer intento con el código de mensaje indicado (SOAP Fault); la factura queda en error o se reintenta, según el código.',
    en: 'The authority refuses the whole message on the first attempt with the given message-level code (SOAP Fault); the invoice goes to error or is retried, as the code says.',
  },
  reply_lost: {
    es: 'La AEAT guarda el registro y la respuesta se pierde; la Consulta tampoco responde; el reenvío recibe 3000 (duplicado) y la Consulta confirma que es el mismo registro: aceptada, sin registrarla dos veces.',
    en: 'The authority stores the record and the answer is lost; the Consulta service does not answer either; the resend meets 3000 (duplicate) and the Consulta confirms it is the same record: accepted, never registered twice.',
  },
  stored_then_failed: {
    es: 'La AEAT guarda el registro y responde un error interno (Codigo[102]); la Consulta confirma que lo tiene: aceptada sin reenviarla.',
    en: 'The authority stores the record and answers an internal error (Codigo[102]); the Consulta service confirms it holds it: accepted without a resend.',
  },
  answered_after: {
    es: 'La AEAT responde tras los segundos indicados; pasado el tiempo de espera del servicio, la Consulta decide.',
    en: 'The authority answers after the given number of seconds; past the service’s timeout, the Consulta service decides.',
  },
  authority_down: {
    es: 'La AEAT no está disponible para este contribuyente durante los segundos indicados (página HTML 503); el servicio reintenta solo y la factura se acepta al volver.',
    en: 'The authority is down for this taxpayer for the given number of seconds (HTML 503 page); the service retries on its own and the invoice is accepted once it is back.',
  },
  duplicate_without_detail: {
    es: 'La AEAT ya tiene el registro y responde 3000 sin el bloque RegistroDuplicado; la Consulta confirma que es el nuestro: aceptada.',
    en: 'The authority already holds the record and answers 3000 without the RegistroDuplicado block; the Consulta service confirms it is ours: accepted.',
  },
};
