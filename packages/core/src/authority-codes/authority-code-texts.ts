import { cause, type CauseText, type NextStep } from './cause-text';

const CORRECT_INVOICE: NextStep = {
  es: 'Corrige los datos de la factura y envía la corrección (subsanación).',
  en: 'Correct the invoice data and send the correction (subsanación).',
};
const CONTACT_SUPPORT: NextStep = {
  es: 'No depende de ti: el servicio lo registra; si se repite, contacta con soporte.',
  en: 'Nothing for you to change: the service logs it; if it happens again, contact support.',
};
const RESEND_AFTER_FIX: NextStep = {
  es: 'Corrígelo y pulsa «Reenviar» (o cambia los datos del contribuyente: el envío se reanuda solo).',
  en: 'Fix it, then press Resend (or update the taxpayer: sending resumes on its own).',
};
const REQUIREMENT_REFERENCE: NextStep = {
  es: 'Copia la referencia tal como figura en el requerimiento de la AEAT y empieza una nueva remisión con ella.',
  en: "Copy the reference exactly as the authority's requerimiento gives it and start a new remission with it.",
};
const NOTHING_TO_DO: NextStep = { es: 'No tienes que hacer nada.', en: 'Nothing to do.' };

/**
 * Every code the authority (and the simulator) answers, in plain words with the next step. Texts paraphrase the
 * authority's list of errors (errores.properties) for someone who issues invoices, not for a developer.
 */
export const AUTHORITY_CODE_TEXTS: Readonly<Record<number, CauseText>> = {
  // Message-level: the whole message was refused and nothing was registered.
  4102: cause(
    'El mensaje no cumple el formato de la AEAT (falta un campo obligatorio).',
    "The message does not follow the authority's format (a required field is missing).",
    CONTACT_SUPPORT,
  ),
  4103: cause('La AEAT no pudo leer el mensaje.', 'The authority could not read the message.', CONTACT_SUPPORT),
  4104: cause('El NIF del contribuyente no figura en el censo de la AEAT.', "The taxpayer's NIF is not in the authority's census.", {
    es: 'Revisa el NIF y el nombre del contribuyente y guárdalos corregidos; el envío se reanuda solo.',
    en: "Check the taxpayer's NIF and name and save them corrected; sending resumes on its own.",
  }),
  4105: cause(
    'El NIF del representante no figura en el censo de la AEAT.',
    "The representative's NIF is not in the authority's census.",
    RESEND_AFTER_FIX,
  ),
  4108: cause(
    'La AEAT tuvo un error técnico al obtener el certificado con el que se presentó el envío.',
    'The authority had a technical error reading the certificate the message was presented with.',
    CONTACT_SUPPORT,
  ),
  4112: cause(
    'La AEAT no acepta este certificado para presentar facturas de este contribuyente: su titular no es el contribuyente, ni un colaborador social, apoderado o sucesor.',
    "The authority does not accept this certificate for this taxpayer's invoices: its holder is not the taxpayer, a social collaborator, an authorised representative or a successor.",
    {
      es: 'Sube un certificado a nombre del contribuyente (o da de alta el apoderamiento en la AEAT y pulsa «Reenviar»); el envío se reanuda solo al cambiar el certificado.',
      en: "Upload a certificate in the taxpayer's name (or register the power of attorney with the authority and press Resend); sending resumes on its own when the certificate changes.",
    },
  ),
  4113: cause(
    'El mensaje llevaba más registros de los permitidos en un bloque.',
    'The message carried more records than a block allows.',
    CONTACT_SUPPORT,
  ),
  4114: cause('El mensaje llevaba más de 1.000 facturas.', 'The message carried more than 1,000 invoices.', CONTACT_SUPPORT),
  // A remission on the authority's request (RequerimientoSOAP): the header is the service's, never the taxpayer's data.
  4122: cause(
    'La AEAT no reconoce la referencia del requerimiento (RefRequerimiento) para este contribuyente.',
    "The authority does not recognise the requerimiento's reference (RefRequerimiento) for this taxpayer.",
    REQUIREMENT_REFERENCE,
  ),
  4125: cause(
    'Un envío por requerimiento llegó a la AEAT sin la referencia del requerimiento (RefRequerimiento).',
    "A send on the authority's request reached it without the requerimiento's reference (RefRequerimiento).",
    CONTACT_SUPPORT,
  ),
  4126: cause(
    'Se envió la referencia de un requerimiento al servicio de envío voluntario (VERI*FACTU); solo la admite el servicio de requerimientos.',
    'A requerimiento reference was sent to the voluntary (VERI*FACTU) service; only the requerimiento service takes one.',
    CONTACT_SUPPORT,
  ),
  4127: cause(
    'Un envío por requerimiento llevaba datos de remisión voluntaria, que solo admiten los sistemas VERI*FACTU.',
    "A send on the authority's request carried voluntary-remission data, which only VERI*FACTU systems may send.",
    CONTACT_SUPPORT,
  ),
  4128: cause(
    'La AEAT tuvo un error técnico al consultar sus tablas.',
    'The authority had a technical error reading its tables.',
    CONTACT_SUPPORT,
  ),
  4129: cause(
    'Un envío por requerimiento llegó a la AEAT sin indicar si es el último (FinRequerimiento).',
    "A send on the authority's request reached it without saying whether it is the last one (FinRequerimiento).",
    CONTACT_SUPPORT,
  ),
  4130: cause(
    'Se indicó el fin de un requerimiento (FinRequerimiento) en un envío VERI*FACTU; solo lo admiten los sistemas No VERI*FACTU.',
    'The end of a requerimiento (FinRequerimiento) was given in a VERI*FACTU send; only NO VERI*FACTU systems may give it.',
    CONTACT_SUPPORT,
  ),
  4131: cause(
    'El indicador de fin del requerimiento (FinRequerimiento) no es S ni N.',
    'The end-of-requerimiento flag (FinRequerimiento) is neither S nor N.',
    CONTACT_SUPPORT,
  ),
  4133: cause(
    'La referencia del requerimiento (RefRequerimiento) solo puede llevar letras y cifras.',
    "The requerimiento's reference (RefRequerimiento) may hold only letters and digits.",
    REQUIREMENT_REFERENCE,
  ),
  4132: cause(
    'El titular del certificado no puede hacer esta consulta.',
    'The certificate holder may not make this query.',
    RESEND_AFTER_FIX,
  ),
  4135: cause(
    'Se llamó a la AEAT con un método no permitido.',
    'The authority was called with a method it does not allow.',
    CONTACT_SUPPORT,
  ),
  20009: cause('La AEAT tuvo un error interno.', 'The authority had an internal error.', {
    es: 'El servicio reintenta solo, con las mismas huellas y fechas.',
    en: 'The service retries on its own, with the same hashes and timestamps.',
  }),

  // Record-level: the authority refused (or accepted with a warning) this record.
  1100: cause('Un campo tiene un valor o tipo incorrecto.', 'A field has a wrong value or type.', CORRECT_INVOICE),
  1104: cause('El número de la factura no es válido.', 'The invoice number is not valid.', CORRECT_INVOICE),
  1105: cause('La fecha de expedición no es válida.', 'The issue date is not valid.', CORRECT_INVOICE),
  1108: cause(
    'El NIF del emisor de la factura no coincide con el del contribuyente que la presenta.',
    "The issuer's NIF differs from the presenting taxpayer's.",
    CORRECT_INVOICE,
  ),
  1109: cause(
    'Un NIF de la factura no figura en el censo de la AEAT.',
    "A NIF on the invoice is not in the authority's census.",
    CORRECT_INVOICE,
  ),
  1110: cause(
    'Un NIF de la factura no figura en el censo de la AEAT.',
    "A NIF on the invoice is not in the authority's census.",
    CORRECT_INVOICE,
  ),
  1112: cause('La fecha de expedición es posterior a hoy.', 'The issue date is later than today.', CORRECT_INVOICE),
  1114: cause(
    'Una factura rectificativa necesita el tipo de rectificación (S o I).',
    'A corrective invoice needs its rectification type (S or I).',
    CORRECT_INVOICE,
  ),
  1115: cause(
    'Solo las facturas rectificativas llevan tipo de rectificación.',
    'Only corrective invoices carry a rectification type.',
    CORRECT_INVOICE,
  ),
  1117: cause(
    'Solo las facturas rectificativas indican facturas rectificadas.',
    'Only corrective invoices list corrected invoices.',
    CORRECT_INVOICE,
  ),
  1118: cause(
    'Una rectificativa por sustitución necesita los importes rectificados.',
    'A corrective invoice by substitution needs the rectified amounts.',
    CORRECT_INVOICE,
  ),
  1119: cause(
    'Solo las rectificativas por sustitución llevan importes rectificados.',
    'Only corrective invoices by substitution carry rectified amounts.',
    CORRECT_INVOICE,
  ),
  1124: cause('El tipo impositivo no es uno de los permitidos.', 'The tax rate is not one of the allowed rates.', CORRECT_INVOICE),
  1126: cause(
    'El país del destinatario no cuadra con su tipo de identificación.',
    "The recipient's country does not match its identification type.",
    CORRECT_INVOICE,
  ),
  1130: cause(
    'El número de la factura tiene caracteres no permitidos.',
    'The invoice number contains characters that are not allowed.',
    CORRECT_INVOICE,
  ),
  1138: cause(
    'La marca de macrodato solo va en facturas de 100.000.000 € o más.',
    'The large-amount flag is only for invoices of €100,000,000 or more.',
    CORRECT_INVOICE,
  ),
  1139: cause(
    'Una factura de 100.000.000 € o más debe llevar la marca de macrodato.',
    'An invoice of €100,000,000 or more must carry the large-amount flag.',
    CORRECT_INVOICE,
  ),
  1142: cause(
    'La cuota no corresponde a la base imponible y el tipo.',
    'The tax amount does not match the base and the rate.',
    CORRECT_INVOICE,
  ),
  1143: cause(
    'La cuota y la base imponible deben tener el mismo signo.',
    'The tax amount and the base must have the same sign.',
    CORRECT_INVOICE,
  ),
  1145: cause('Una fecha tiene un formato incorrecto.', 'A date has the wrong format.', CORRECT_INVOICE),
  1150: cause(
    'Una factura simplificada (F2) no puede superar 3.000 €.',
    'A simplified invoice (F2) cannot exceed €3,000.',
    CORRECT_INVOICE,
  ),
  1152: cause(
    'La fecha de expedición no puede ser anterior al 28 de octubre de 2024.',
    'The issue date cannot be earlier than 28 October 2024.',
    CORRECT_INVOICE,
  ),
  1153: cause(
    'RechazoPrevio=X solo vale junto con Subsanacion=S.',
    'RechazoPrevio=X is only valid together with Subsanacion=S.',
    CONTACT_SUPPORT,
  ),
  1156: cause(
    'Con un destinatario identificado por NIF-IVA (tipo 02) ese tipo de factura no es válido.',
    'With a recipient identified by EU VAT number (type 02) this invoice type is not valid.',
    CORRECT_INVOICE,
  ),
  1161: cause(
    'RechazoPrevio=S solo vale junto con Subsanacion=S.',
    'RechazoPrevio=S is only valid together with Subsanacion=S.',
    CONTACT_SUPPORT,
  ),
  1173: cause(
    'La fecha de operación solo puede ser futura en operaciones de tracto sucesivo o certificaciones de obra (claves 14 y 15).',
    'The operation date can only be in the future for regime keys 14 and 15.',
    CORRECT_INVOICE,
  ),
  1177: cause('El identificador del sistema informático no es válido.', "The computer system's identifier is not valid.", {
    es: 'Corrige el código del sistema informático en «Sistemas» y pulsa «Reenviar».',
    en: "Correct the computer system's code under Systems and press Resend.",
  }),
  1189: cause('Este tipo de factura necesita destinatario.', 'This invoice type needs a recipient.', CORRECT_INVOICE),
  1190: cause('Las facturas F2 y R5 no llevan destinatario.', 'F2 and R5 invoices carry no recipient.', CORRECT_INVOICE),
  1193: cause(
    'El NIF del destinatario debe existir y ser distinto del del emisor.',
    "The recipient's NIF must exist and differ from the issuer's.",
    CORRECT_INVOICE,
  ),
  1194: cause(
    'Ese tipo impositivo solo era válido entre el 1 de julio de 2022 y el 30 de septiembre de 2024.',
    'That tax rate was only valid from 1 July 2022 to 30 September 2024.',
    CORRECT_INVOICE,
  ),
  1197: cause(
    'La inversión del sujeto pasivo (S2) solo vale en facturas F1, F3, R1, R2, R3 y R4.',
    'Reverse charge (S2) is only valid on F1, F3, R1, R2, R3 and R4 invoices.',
    CORRECT_INVOICE,
  ),
  1198: cause(
    'Con inversión del sujeto pasivo (S2) el tipo y la cuota deben ser 0.',
    'With reverse charge (S2) the rate and the tax amount must be 0.',
    CORRECT_INVOICE,
  ),
  1207: cause('Solo las operaciones S1 llevan cuota distinta de 0.', 'Only S1 operations carry a non-zero tax amount.', CORRECT_INVOICE),
  1208: cause('Una operación S1 necesita tipo y cuota.', 'An S1 operation needs a rate and a tax amount.', CORRECT_INVOICE),
  1235: cause(
    'Ese tipo impositivo solo era válido entre el 1 de octubre y el 31 de diciembre de 2024.',
    'That tax rate was only valid from 1 October to 31 December 2024.',
    CORRECT_INVOICE,
  ),
  1237: cause(
    'Una operación no sujeta (N1, N2) de IVA no lleva tipo, cuota ni recargo.',
    'A not-subject VAT operation (N1, N2) carries no rate, tax amount or surcharge.',
    CORRECT_INVOICE,
  ),
  1238: cause(
    'Una operación exenta no lleva tipo, cuota ni recargo.',
    'An exempt operation carries no rate, tax amount or surcharge.',
    CORRECT_INVOICE,
  ),
  1244: cause(
    'La fecha y hora de generación del registro tiene un formato incorrecto.',
    "The record's generation time has the wrong format.",
    CONTACT_SUPPORT,
  ),
  1245: cause('Con IVA o IGIC hay que indicar la clave de régimen.', 'With VAT or IGIC the regime key is required.', CORRECT_INVOICE),
  1260: cause('La clave de régimen solo se indica con IVA o IGIC.', 'The regime key is only given with VAT or IGIC.', CORRECT_INVOICE),
  1281: cause(
    'El recargo de equivalencia solo va en operaciones S1.',
    'The equivalence surcharge only goes with S1 operations.',
    CORRECT_INVOICE,
  ),
  1284: cause(
    'El tipo y la cuota del recargo de equivalencia van siempre juntos.',
    'The surcharge rate and amount always go together.',
    CORRECT_INVOICE,
  ),
  2000: cause(
    'La huella del registro no es la que calcula la AEAT.',
    "The record's hash is not the one the authority computes.",
    CONTACT_SUPPORT,
  ),
  2001: cause('El NIF del destinatario no figura en el censo de la AEAT.', "The recipient's NIF is not in the authority's census.", {
    es: 'Comprueba el NIF con tu cliente. La factura queda registrada con este aviso; corrígela si el NIF era erróneo.',
    en: 'Check the NIF with your customer. The invoice stays registered with this warning; correct it if the NIF was wrong.',
  }),
  2002: cause(
    'La huella del registro anterior no tiene la longitud correcta.',
    "The previous record's hash has the wrong length.",
    CONTACT_SUPPORT,
  ),
  2003: cause(
    'La huella del registro anterior no tiene el formato correcto.',
    "The previous record's hash has the wrong format.",
    CONTACT_SUPPORT,
  ),
  2004: cause(
    'La hora de generación del registro se aleja demasiado de la hora de la AEAT.',
    "The record's generation time is too far from the authority's clock.",
    {
      es: 'El registro queda aceptado con este aviso; no hace falta corregirlo.',
      en: 'The record stays accepted with this warning; it needs no correction.',
    },
  ),
  2005: cause(
    'El importe total no cuadra con las bases, cuotas y recargos.',
    'The total does not match the bases, taxes and surcharges.',
    CORRECT_INVOICE,
  ),
  2006: cause(
    'La cuota total no cuadra con las cuotas y recargos.',
    'The total tax does not match the taxes and surcharges.',
    CORRECT_INVOICE,
  ),
  // Stored: nothing forbids the next records, so the chain goes on; in the sandbox, where test NIFs are shared, it is
  // an everyday answer.
  2007: cause(
    'La AEAT registró la factura con un aviso: ya tenía registros de este contribuyente hechos con este sistema informático, así que este no era el primero de la cadena para ella. La factura cuenta como registrada y los registros siguientes se envían con normalidad.',
    'The authority registered the invoice with a warning: it already held records of this taxpayer made with this computer system, so this was not the first record of the chain there. The invoice counts as registered and the following records are sent as usual.',
    {
      es: 'No hay que corregir esta factura. En el entorno de pruebas es habitual (otros usan el mismo NIF de pruebas). En producción, si otro programa o una instalación anterior envía facturas de este contribuyente como el mismo sistema, da a este sistema su propio número de instalación (en Sistemas, o PUT /systems/{id} con installation_number): vale para las facturas siguientes.',
      en: "This invoice needs no correction. In the sandbox it is common (others use the same test NIF). In production, if another program or an earlier installation sends this taxpayer's invoices as the same system, give this system its own installation number (on the Systems page, or PUT /systems/{id} with installation_number): it applies to the next invoices.",
    },
  ),
  2008: cause(
    'La huella anterior no puede ser igual a la del propio registro.',
    "The previous hash cannot equal the record's own hash.",
    CONTACT_SUPPORT,
  ),
  2009: cause(
    'Una línea de IPSI no indica su clave de régimen, o indica una que no es de la lista de IPSI.',
    'An IPSI line does not give its regime key, or gives one outside the IPSI list.',
    {
      es: 'No hace falta corregir esta factura; indica una clave de régimen de IPSI (regime_type) en las siguientes: desde 2027 la AEAT rechaza las líneas de IPSI sin ella.',
      en: 'This invoice needs no correction; give an IPSI regime key (regime_type) on the next ones: from 2027 the authority refuses IPSI lines without one.',
    },
  ),
  3000: cause(
    'La AEAT ya tiene un registro con este número y fecha de factura.',
    'The authority already holds a record with this invoice number and date.',
    {
      es: 'Si la factura es tuya y distinta, emítela con otro número.',
      en: 'If it is a different invoice of yours, issue it with another number.',
    },
  ),
  3001: cause('El registro ya estaba anulado en la AEAT.', 'The record was already cancelled at the authority.', NOTHING_TO_DO),
  3002: cause('La AEAT no tiene el registro que se quiere corregir o anular.', 'The authority holds no record to correct or cancel.', {
    es: 'Espera a que el alta llegue a la AEAT y vuelve a enviar la corrección o la anulación.',
    en: 'Wait until the original record reaches the authority, then send the correction or cancellation again.',
  }),
  3003: cause(
    'El presentador no tiene permiso para modificar este registro.',
    'The presenter may not change this record.',
    RESEND_AFTER_FIX,
  ),
  3004: cause(
    'La factura se dio de alta mediante el formulario de la AEAT y no puede modificarse desde aquí.',
    "The invoice was registered through the authority's web form and cannot be changed from here.",
    {
      es: 'Modifícala desde la sede electrónica de la AEAT.',
      en: "Change it in the authority's web portal.",
    },
  ),
};
