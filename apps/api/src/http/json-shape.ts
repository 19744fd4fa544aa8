import { ApiError } from '../errors/api-error';

/**
 * How large a JSON body's structure may be, well above any request the API documents (the deepest is a batch item's
 * breakdown line, 4 levels; the widest object an invoice, about 30 fields; the longest array a batch, 1,000 items,
 * whose own rule answers 1,001). Past these a body is refused before it is parsed or validated, so its cost stays
 * that of reading its bytes.
 */
export interface JsonShapeLimits {
  maxDepth: number;
  maxKeysPerObject: number;
  maxItemsPerArray: number;
}

export const JSON_SHAPE_LIMITS: JsonShapeLimits = { maxDepth: 16, maxKeysPerObject: 100, maxItemsPerArray: 10_000 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

// The scan's per-level counters for the usual limits, shared by every body: the scan is synchronous, and a level's
// slots are set when it opens, before they are read. Typed arrays cost more to make than the scan of a small body.
const USUAL_MEMBERS = new Uint32Array(JSON_SHAPE_LIMITS.maxDepth + 1);
const USUAL_IS_OBJECT = new Uint8Array(JSON_SHAPE_LIMITS.maxDepth + 1);

// A byte inside a string: most are plain; a quote ends the string, a backslash escapes the next byte, and the others
// may start a control character (input-guard.ts's): a raw byte below 0x20 or DEL, or 0xC2, the lead byte of the C1
// controls U+0080-U+009F in UTF-8.
const PLAIN = 0;
const ENDS = 1;
const ESCAPES = 2;
const MAY_CONTROL = 3;
const IN_STRING = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) IN_STRING[b] = MAY_CONTROL;
IN_STRING[0x7f] = MAY_CONTROL;
IN_STRING[0xc2] = MAY_CONTROL;
IN_STRING[QUOTE] = ENDS;
IN_STRING[BACKSLASH] = ESCAPES;
const ESCAPED_U = 0x75;
const ESCAPED_B = 0x62;
const ESCAPED_F = 0x66;

/** What one pass over a JSON text's bytes found. */
export interface JsonScan {
  /** The first structural limit the text exceeds. */
  problem: ApiError | undefined;
  /**
   * Whether a string of it may hold a control character, raw or escaped (\b, \f, \u0000...). When false, none of the
   * parsed value's strings holds one and the walk of input-guard.ts is not needed.
   */
  controls: boolean;
}

/**
 * The first structural limit a UTF-8 JSON text exceeds, and whether its strings may hold a control character, found in
 * one pass over its bytes (outside strings, every `{`/`[` opens a level and every `,` adds a member to the innermost
 * one). Malformed text is left to the parser.
 */
export function scanJson(bytes: Uint8Array, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): JsonScan {
  const usual = limits === JSON_SHAPE_LIMITS;
  const members = usual ? USUAL_MEMBERS : new Uint32Array(limits.maxDepth + 1);
  const isObject = usual ? USUAL_IS_OBJECT : new Uint8Array(limits.maxDepth + 1);
  let depth = 0;
  let inString = false;
  let escaped = false;
  let controls = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (escaped) {
        escaped = false;
        if (byte === ESCAPED_B || byte === ESCAPED_F || (byte === ESCAPED_U && escapedControl(bytes, i + 1))) controls = true;
        continue;
      }
      const kind = IN_STRING[byte];
      if (kind === PLAIN) continue;
      if (kind === ENDS) inString = false;
      else if (kind === ESCAPES) escaped = true;
      else if (byte !== 0xc2 || (bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9f)) controls = true;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limits.maxDepth) return { problem: tooDeep(limits.maxDepth), controls: true };
      members[depth] = 1;
      isObject[depth] = byte === OPEN_OBJECT ? 1 : 0;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (byte === COMMA && depth > 0) {
      if (isObject[depth] && ++members[depth] > limits.maxKeysPerObject)
        return { problem: tooManyKeys(limits.maxKeysPerObject), controls: true };
      if (!isObject[depth] && ++members[depth] > limits.maxItemsPerArray)
        return { problem: tooManyItems(limits.maxItemsPerArray), controls: true };
    }
  }
  return { problem: undefined, controls };
}

/** Whether the four hex digits at `at` (a \u escape's) name a control character; anything but four hex digits may. */
function escapedControl(bytes: Uint8Array, at: number): boolean {
  let code = 0;
  for (let k = at; k < at + 4; k++) {
    const digit = hexDigit(bytes[k]);
    if (digit < 0) return true;
    code = code * 16 + digit;
  }
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);
}

function hexDigit(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function tooDeep(max: number): ApiError {
  return new ApiError('nesting_too_deep', `The body nests objects and arrays more than ${max} levels deep.`);
}

function tooManyKeys(max: number): ApiError {
  return new ApiError('too_many_keys', `An object in the body has more than ${max} keys.`);
}

function tooManyItems(max: number): ApiError {
  return new ApiError('too_many_items', `An array in the body has more than ${max.toLocaleString('en')} items.`);
}

// Requests whose JSON body the scan found free of control characters (a WeakSet: nothing to clear).
const scannedWithoutControls = new WeakSet<object>();

/** Whether the request's JSON body was scanned by verifyJsonShape and none of its strings holds a control character. */
export function bodyScannedWithoutControls(req: object): boolean {
  return scannedWithoutControls.has(req);
}

/** body-parser's `verify` hook: runs on the raw bytes before JSON.parse, and only UTF-8 is read (RFC 8259 §8.1). */
export function verifyJsonShape(req: object, _res: unknown, bytes: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8') throw Object.assign(new Error('not UTF-8'), { type: 'charset.unsupported' });
  const { problem, controls } = scanJson(bytes);
  if (problem) throw problem;
  if (!controls) scannedWithoutControls.add(req);
}
