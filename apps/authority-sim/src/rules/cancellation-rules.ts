import { node, text, type XmlNode } from '@vf/xml';
import { chainTailContentError, chainTailSyntaxError } from './chain-tail-rules';
import { longerThan, notOneOf } from './formats';
import { identityError, otherId } from './identity-syntax';
import { recordIdError, recordIdOf } from './record-id';
import { firstFinding, type Rule, type RuleContext } from './rule-context';

// A RegistroAnulacion: its identifiers, flags, GeneradoPor/Generador (AEAT Validaciones y errores v1.2.0 §3.2) and the tail it shares with an alta.

const SYNTAX: readonly Rule<XmlNode>[] = [
  (a) => (notOneOf(text(a, 'IDVersion'), ['1.0']) ? 1251 : undefined),
  (a, ctx) => recordIdError(recordIdOf(a, 'anulacion'), ctx),
  (a) => (longerThan(text(a, 'RefExterna') ?? '', 60) ? 1253 : undefined),
  (a) => (notOneOf(text(a, 'SinRegistroPrevio'), ['S', 'N']) ? 1276 : undefined),
  (a) => (notOneOf(text(a, 'RechazoPrevio'), ['S', 'N']) ? 1275 : undefined),
  (a) => (notOneOf(text(a, 'GeneradoPor'), ['E', 'D', 'T']) ? 1225 : undefined),
  (a) => identityError(node(a, 'Generador'), 'generator'),
  (a, ctx) => chainTailSyntaxError(a, ctx),
];

export function cancellationSyntaxError(anulacion: XmlNode, ctx: RuleContext) {
  return firstFinding(SYNTAX, anulacion, ctx);
}

/** Who generated the anulación (1224, 1227, 1229, 1230, 1232, 1259), then the shared tail. */
export function cancellationContentError(anulacion: XmlNode, ctx: RuleContext): number | undefined {
  const by = text(anulacion, 'GeneradoPor');
  const generator = node(anulacion, 'Generador');
  if ((by === undefined) !== (generator === undefined)) return 1224;
  if (generator) {
    const nif = text(generator, 'NIF');
    const other = otherId(generator);
    if (by === 'E' && nif === undefined) return 1227;
    if (by === 'T' && other?.idType === '07') return 1229;
    if (by === 'D' && other?.country === 'ES' && other.idType !== '03' && other.idType !== '07') return 1230;
    if (by === 'T' && other?.country === 'ES' && other.idType !== '03') return 1232;
    if (nif !== undefined && (nif === ctx.headerNif || ctx.unknown.has(nif))) return 1259;
  }
  return chainTailContentError(anulacion, recordIdOf(anulacion, 'anulacion').issuerNif, ctx);
}
