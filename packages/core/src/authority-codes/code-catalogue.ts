import { AEAT_ERROR_TABLE, type AeatErrorLevel } from './aeat-error-table';
import { AUTHORITY_CODE_TEXTS } from './authority-code-texts';
import { cause, type CauseText, type NextStep } from './cause-text';

/**
 * What the service does when the authority answers a code:
 * - `accepted_with_warnings`: the authority stored the record with errors; it is registered, to be corrected later;
 * - `rejected`: the authority refused the record and stored nothing; the user corrects and registers again;
 * - `error`: nothing the service can do on its own; the record waits for the user (or an operator), the fix spelled out;
 * - `retry`: a technical error at the authority: the same record goes again by itself, with backoff;
 * - `consulta`: the answer does not say whether the authority holds the record: the Consulta service settles it;
 * - `stop`: every send under the certificate stops until an operator resumes it (never retried automatically).
 */
export type CodeAction = 'accepted_with_warnings' | 'rejected' | 'error' | 'retry' | 'consulta' | 'stop';

export interface CodeBehaviour {
  readonly code: number;
  /** The error table's level; `outside_table` for the codes observed on the real service that no table lists. */
  readonly level: AeatErrorLevel | 'outside_table';
  readonly action: CodeAction;
  /** Does the authority hold the record after this answer: only the Consulta service can say when `unknown`. */
  readonly stored: 'yes' | 'no' | 'unknown';
  /** The service sends the same record again by itself. */
  readonly retried: boolean;
  /** Someone has to act: correct the invoice, replace a certificate, write to the authority. */
  readonly needsUser: boolean;
  /** Every send under the certificate stops until an operator resumes it. */
  readonly stopsSender: boolean;
  /** What happened and what to do, in Spanish (first) and English. */
  readonly text: CauseText;
}

/**
 * Never more often than this does a chain go again after a failure: the authority's TiempoEsperaEnvio, which was 60 s
 * in every answer integrators observed, also bounds how often a failing record is retried.
 */
export const MIN_RETRY_SECONDS = 60;

/**
 * Technical codes that ask the client to try again. The record-level ones are answered as Incorrecto lines, the
 * message-level ones as SOAP faults inside an HTTP 200 (as integrators observed on the real service); 102 and 20009
 * are the internal-error faults the service answers outside its table.
 */
const RETRY_CODES = new Set([1129, 1241, 1243, 1256, 1288, 3500, 3501, 4103, 4108, 4110, 4111, 4118, 4128, 102, 20009]);

/**
 * Codes whose answer does not settle whether the record is held: 3000 (a duplicate: ours, from a lost answer, or
 * another record under the same number) and 3001 (the invoice is already cancelled: perhaps by our own anulación,
 * whose answer was lost).
 */
const CONSULTA_CODES = new Set([3000, 3001]);

/** The authority's internal errors: seen after it had stored the records ("stored, then failed"). */
const INTERNAL_ERRORS = new Set([102, 20009]);

/** Access suspended: resolved only by writing to the authority; retrying would only prolong the suspension. */
const STOP_CODES = new Set([4141]);

const RETRY_STEP: NextStep = {
  es: 'No tienes que hacer nada: el servicio reenvía el mismo registro solo, como mucho una vez por minuto.',
  en: 'Nothing to do: the service sends the same record again on its own, at most once a minute.',
};
const CORRECT_LATER: NextStep = {
  es: 'La factura ya cuenta como registrada; corrige el dato y envía la subsanación cuando puedas.',
  en: 'The invoice counts as registered; correct the data and send the correction (subsanación) when you can.',
};
const CORRECT_AND_REGISTER: NextStep = {
  es: 'Corrige la factura y regístrala de nuevo.',
  en: 'Correct the invoice and register it again.',
};
const CONTACT_SUPPORT: NextStep = {
  es: 'No depende de la factura: el servicio lo registra; si se repite, contacta con soporte.',
  en: 'It does not depend on the invoice: the service logs it; if it happens again, contact support.',
};

/** Plain words for the codes the authority's table text alone would leave unclear, and those outside the table. */
const OWN_TEXTS: Readonly<Record<number, CauseText>> = {
  102: cause(
    'Error interno de la AEAT (Codigo[102]); no se sabe si registró el mensaje.',
    "The authority's internal error (Codigo[102]); whether it registered the message is unknown.",
    RETRY_STEP,
  ),
  20009: cause('Error interno de la AEAT (Codigo[20009]).', "The authority's internal error (Codigo[20009]).", RETRY_STEP),
  401: cause(
    'La AEAT no admite el certificado con el que se presentó el envío (@firma COD_066).',
    'The authority does not support the certificate the message was presented with (@firma COD_066).',
    {
      es: 'Sube un certificado cualificado vigente del contribuyente (o de su apoderado) y pulsa «Reenviar».',
      en: 'Upload a valid qualified certificate of the taxpayer (or its representative) and press Resend.',
    },
  ),
  3001: cause('La AEAT ya tenía anulada esta factura.', 'The authority already had this invoice cancelled.', {
    es: 'El servicio consulta a la AEAT qué anulación tiene: si es la tuya, queda aceptada; si no, no tienes que volver a anularla.',
    en: 'The service asks the authority which cancellation it holds: if it is yours, it is accepted; if not, there is nothing left to cancel.',
  }),
  4134: cause('El servicio de la AEAT no está activo para este entorno.', "The authority's service is not active for this environment.", {
    es: 'No depende de la factura: cuando la AEAT active el servicio, pulsa «Reenviar».',
    en: 'It does not depend on the invoice: once the authority enables the service, press Resend.',
  }),
  4139: cause(
    'El servicio de la AEAT no está habilitado en producción para este presentador.',
    "The authority's service is not enabled in production for this presenter.",
    {
      es: 'Comprueba con la AEAT el alta en producción y pulsa «Reenviar» cuando esté habilitado.',
      en: 'Check the production enrolment with the authority and press Resend once it is enabled.',
    },
  ),
  4141: cause(
    'La AEAT ha suspendido el acceso de este certificado: el servicio ha detenido todos los envíos con él.',
    'The authority has suspended access for this certificate: the service stopped every send made with it.',
    {
      es: 'Solo se resuelve escribiendo a la AEAT; cuando levante la suspensión, el operador del servicio reanuda los envíos y las facturas salen solas.',
      en: 'Only writing to the authority resolves it; once it lifts the suspension, the service operator resumes sending and the invoices go on their own.',
    },
  ),
};

function tableText(level: AeatErrorLevel, action: CodeAction, code: number, text: string): CauseText {
  const quoted = text.replace(/[.:]\s*$/, '');
  if (action === 'retry')
    return cause(
      `Error técnico de la AEAT: «${quoted}».`,
      `A technical error at the authority (its text, in Spanish: «${quoted}»).`,
      RETRY_STEP,
    );
  if (level === 'accepted')
    return cause(
      `La AEAT registró la factura con un error: «${quoted}».`,
      `The authority registered the invoice with an error (its text, in Spanish: «${quoted}»).`,
      CORRECT_LATER,
    );
  if (level === 'record')
    return cause(
      `La AEAT rechazó el registro y no lo guardó: «${quoted}».`,
      `The authority refused the record and did not store it (its text, in Spanish: «${quoted}»).`,
      CORRECT_AND_REGISTER,
    );
  return cause(
    `La AEAT rechazó el envío completo (código ${code}) y no registró nada: «${quoted}».`,
    `The authority refused the whole message (code ${code}) and registered nothing (its text, in Spanish: «${quoted}»).`,
    CONTACT_SUPPORT,
  );
}

function actionOf(code: number, level: AeatErrorLevel | 'outside_table'): CodeAction {
  if (RETRY_CODES.has(code)) return 'retry';
  if (CONSULTA_CODES.has(code)) return 'consulta';
  if (STOP_CODES.has(code)) return 'stop';
  if (level === 'accepted') return 'accepted_with_warnings';
  if (level === 'record') return 'rejected';
  return 'error';
}

function behaviour(code: number, level: AeatErrorLevel | 'outside_table', authorityText: string): CodeBehaviour {
  const action = actionOf(code, level);
  const known = OWN_TEXTS[code] ?? AUTHORITY_CODE_TEXTS[code];
  // A code retried by the service tells the user there is nothing to do, whatever its own words say of its cause.
  const text = known
    ? action === 'retry'
      ? { es: { ...known.es, nextStep: RETRY_STEP.es }, en: { ...known.en, nextStep: RETRY_STEP.en } }
      : known
    : tableText(level === 'outside_table' ? 'message' : level, action, code, authorityText);
  return {
    code,
    level,
    action,
    stored: level === 'accepted' ? 'yes' : action === 'consulta' || INTERNAL_ERRORS.has(code) ? 'unknown' : 'no',
    retried: action === 'retry',
    needsUser: action === 'rejected' || action === 'error' || action === 'accepted_with_warnings' || action === 'stop',
    stopsSender: action === 'stop',
    text,
  };
}

/** Codes the real service was seen to answer that no published table lists (Server faults and the signing platform's). */
const OUTSIDE_TABLE: readonly { code: number; text: string }[] = [
  { code: 102, text: 'Error interno en el servidor' },
  { code: 20009, text: 'Error interno en el servidor' },
  { code: 401, text: 'Error al llamar a @firma COD_066 El certificado no es soportado por el sistema' },
];

/**
 * One entry per code of the authority's current error table (errores-tikeV1.0, 247 codes), plus the codes observed
 * outside it: its level, whether the authority holds the record, what the service does, and the words for the user.
 */
export const CODE_CATALOGUE: ReadonlyMap<number, CodeBehaviour> = new Map(
  [
    ...AEAT_ERROR_TABLE.map((e) => behaviour(e.code, e.level, e.text)),
    ...OUTSIDE_TABLE.map((e) => behaviour(e.code, 'outside_table', e.text)),
  ].map((b) => [b.code, b]),
);

/**
 * What the service does with a code. A code in no table (the authority may add codes before publishing them) is not
 * guessed at: the Consulta service says whether the record is held, and the user sees the authority's own text.
 */
export function codeBehaviour(code: number): CodeBehaviour {
  const known = CODE_CATALOGUE.get(code);
  if (known) return known;
  return {
    code,
    level: 'outside_table',
    action: 'consulta',
    stored: 'unknown',
    retried: false,
    needsUser: false,
    stopsSender: false,
    text: cause(
      `La AEAT respondió con un código que no figura en su tabla de errores (${code}).`,
      `The authority answered with a code that is not in its error table (${code}).`,
      {
        es: 'El servicio consulta a la AEAT qué tiene registrado antes de decidir; si queda en error, revisa el texto de la AEAT.',
        en: 'The service asks the authority what it holds before deciding; if it stays in error, read the authority’s text.',
      },
    ),
  };
}
