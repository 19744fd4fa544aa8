import { verifyRecordSignature } from '@vf/signing/verify-record-signature';
import type { SimulatorContext } from './simulator-context';

/** What the signatures the simulator received said (state.counters.signatures, GET /__sim/state). */
export interface SignatureCounts {
  valid: number;
  invalid: number;
  /** Records without a signature: allowed in VERI*FACTU sending, counted all the same. */
  missing: number;
}

export function createSignatureCounts(): SignatureCounts {
  return { valid: 0, invalid: 0, missing: 0 };
}

const RECORD = /<((?:[\w.-]+:)?)(RegistroAlta|RegistroAnulacion)\b[\s\S]*?<\/\1\2>/g;

/**
 * A record cut out of the message as the standalone document it was signed as (a signature over URI="" covers the
 * record's own document, AEAT's signature specification §5-6): the service's records declare their namespace
 * themselves; for others, the declarations the message made for their prefixes are added.
 */
function standalone(message: string, record: string): string {
  const missing = new Set(
    [...record.matchAll(/<\/?([\w.-]+):/g)].map((m) => m[1]).filter((prefix) => !record.includes(`xmlns:${prefix}=`)),
  );
  const declarations = [...missing].flatMap((prefix) => new RegExp(` xmlns:${prefix}="[^"]*"`).exec(message)?.[0] ?? []);
  const nameEnd = record.search(/[\s/>]/);
  return record.slice(0, nameEnd) + declarations.join('') + record.slice(nameEnd);
}

/**
 * Verifies the signature of every record of a RegFactuSistemaFacturacion message, as a careful authority would
 * (@vf/signing: the cryptography and the XAdES checks), and counts what it found. Nothing is refused for it: AEAT
 * documents no signature check at reception, and a VERI*FACTU record need not be signed.
 */
export function checkSignatures(ctx: SimulatorContext, message: string): void {
  const counts = ctx.counters.signatures;
  for (const [record] of message.matchAll(RECORD)) {
    const verdict = verifyRecordSignature(standalone(message, record));
    counts[verdict.status] += 1;
    if (verdict.status === 'invalid') {
      const number = /NumSerieFactura(?:Anulada)?>([^<]*)</.exec(record)?.[1] ?? '?';
      ctx.log(`invalid signature on record ${number}: ${verdict.problems.join('; ')}`);
    }
  }
}
