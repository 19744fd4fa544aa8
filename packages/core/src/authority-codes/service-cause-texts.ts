import { cause, type CauseText, type NextStep } from './cause-text';

/** Causes of `error` that come from the service's side, not from an authority code. */
export const SERVICE_CAUSES = [
  'certificate_missing',
  'certificate_unreadable',
  'certificate_expired',
  'certificate_not_yet_valid',
  'taxpayer_missing',
  'record_mismatch',
  'record_unwritable',
  'waiting_for_earlier_record',
  'outage',
  'unknown_answer',
  'number_taken',
  'certificate_refused',
  'sender_stopped',
] as const;

export type ServiceCause = (typeof SERVICE_CAUSES)[number];

const NEW_CERTIFICATE: NextStep = {
  es: 'Sube un certificado vigente del contribuyente (o quítalo para presentar como colaborador social); el envío se reanuda solo.',
  en: 'Upload a valid certificate for the taxpayer (or remove it to present as a social collaborator); sending resumes on its own.',
};
const CONTACT_SUPPORT: NextStep = {
  es: 'El registro no se envía para no romper la cadena; contacta con soporte.',
  en: 'The record is held so the chain stays intact; contact support.',
};
const AUTOMATIC: NextStep = {
  es: 'El servicio sigue reintentando solo, al menos cada hora, con la misma huella y fecha; no tienes que hacer nada.',
  en: 'The service keeps retrying on its own, at least hourly, with the same hash and timestamp; nothing to do.',
};

export const SERVICE_CAUSE_TEXTS: Readonly<Record<ServiceCause, CauseText>> = {
  certificate_missing: cause(
    'No hay certificado con el que presentar: el contribuyente no tiene uno y no hay certificado de colaborador social configurado.',
    'There is no certificate to present with: the taxpayer has none and no social-collaborator certificate is configured.',
    NEW_CERTIFICATE,
  ),
  certificate_unreadable: cause(
    'El certificado del contribuyente no se puede leer (archivo dañado o contraseña incorrecta).',
    "The taxpayer's certificate cannot be read (damaged file or wrong password).",
    NEW_CERTIFICATE,
  ),
  certificate_expired: cause('El certificado del contribuyente ha caducado.', "The taxpayer's certificate has expired.", NEW_CERTIFICATE),
  certificate_not_yet_valid: cause(
    'El certificado del contribuyente aún no es válido.',
    "The taxpayer's certificate is not valid yet.",
    NEW_CERTIFICATE,
  ),
  taxpayer_missing: cause('El contribuyente de este registro ya no existe.', "This record's taxpayer no longer exists.", CONTACT_SUPPORT),
  record_mismatch: cause(
    'El registro guardado ya no coincide con su huella.',
    'The stored record no longer matches its hash.',
    CONTACT_SUPPORT,
  ),
  record_unwritable: cause(
    'El registro guardado no se puede escribir en el formato de la AEAT.',
    "The stored record cannot be written in the authority's format.",
    CONTACT_SUPPORT,
  ),
  waiting_for_earlier_record: cause(
    'Un registro anterior de este contribuyente necesita atención; los registros se envían en orden.',
    'An earlier record of this taxpayer needs attention; records are sent in order.',
    {
      es: 'Resuelve el registro anterior en error; este se enviará justo después.',
      en: 'Resolve the earlier record in error; this one goes right after it.',
    },
  ),
  outage: cause(
    'La AEAT no responde desde hace tiempo (caída o mantenimiento).',
    'The authority has not answered for a while (outage or maintenance).',
    AUTOMATIC,
  ),
  unknown_answer: cause(
    'La AEAT respondió con un estado que el servicio no conoce.',
    'The authority answered with a status the service does not know.',
    {
      es: 'El servicio consulta a la AEAT qué tiene registrado y reenvía el registro sin cambios hasta saberlo.',
      en: 'The service asks the authority what it holds and resends the record unchanged until it knows.',
    },
  ),
  certificate_refused: cause(
    'La AEAT respondió con un error HTTP 500 sin contenido: es lo que hace cuando el titular del certificado no es el contribuyente ni está apoderado para actuar por él. No registró nada.',
    "The authority answered HTTP 500 with no content: what it does when the certificate's holder is neither the taxpayer nor empowered to act for it. It registered nothing.",
    {
      es: 'Sube un certificado a nombre del contribuyente, o da de alta en la AEAT el apoderamiento del titular, y pulsa «Reenviar».',
      en: "Upload a certificate in the taxpayer's name, or register the holder's power of attorney with the authority, and press Resend.",
    },
  ),
  sender_stopped: cause(
    'Los envíos con este certificado están detenidos: la AEAT suspendió su acceso (código 4141).',
    'Sending with this certificate is stopped: the authority suspended its access (code 4141).',
    {
      es: 'Solo se resuelve escribiendo a la AEAT; cuando levante la suspensión, el operador del servicio reanuda los envíos y la factura sale sola.',
      en: 'Only writing to the authority resolves it; once it lifts the suspension, the service operator resumes sending and the invoice goes on its own.',
    },
  ),
  number_taken: cause(
    'El número y la fecha de esta factura ya los tiene otro registro distinto en la AEAT.',
    'Another, different record at the authority already holds this invoice number and date.',
    {
      es: 'Emite la factura con otro número.',
      en: 'Issue the invoice with another number.',
    },
  ),
};
