import { cause, type CauseText } from './cause-text';
import { CODE_CATALOGUE } from './code-catalogue';
import { SERVICE_CAUSE_TEXTS, SERVICE_CAUSES, type ServiceCause } from './service-cause-texts';

export function isServiceCause(value: unknown): value is ServiceCause {
  return typeof value === 'string' && (SERVICE_CAUSES as readonly string[]).includes(value);
}

/** Codes the authority may add later: explained by their family (4xxx message, 1xxx/2xxx record, 3xxx registry). */
function byFamily(code: number): CauseText {
  if (code >= 4000 && code < 5000) {
    return cause(
      `La AEAT rechazó el envío completo (código ${code}); no registró nada.`,
      `The authority refused the whole message (code ${code}); it registered nothing.`,
      {
        es: 'Revisa el texto de la AEAT, corrige la causa y pulsa «Reenviar».',
        en: "Read the authority's text, fix the cause and press Resend.",
      },
    );
  }
  return cause(
    `La AEAT señaló un problema en el registro (código ${code}).`,
    `The authority reported a problem with the record (code ${code}).`,
    {
      es: 'Revisa el texto de la AEAT y, si hace falta, corrige la factura (subsanación).',
      en: "Read the authority's text and, if needed, correct the invoice (subsanación).",
    },
  );
}

/**
 * Plain words for why a record is where it is: the service cause when there is one (it is more precise than the
 * code that came with it), else the authority's code. Undefined when there is neither.
 */
export function explainCause(ref: { code?: number | null; cause?: string | null }): CauseText | undefined {
  if (isServiceCause(ref.cause)) return SERVICE_CAUSE_TEXTS[ref.cause];
  if (ref.code === null || ref.code === undefined) return undefined;
  return CODE_CATALOGUE.get(ref.code)?.text ?? byFamily(ref.code);
}
