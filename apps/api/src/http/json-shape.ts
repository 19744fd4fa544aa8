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

/**
 * The first structural limit a UTF-8 JSON text exceeds, found in one pass over its bytes (outside strings, every
 * `{`/`[` opens a level and every `,` adds a member to the innermost one). Malformed text is left to the parser.
 */
export function jsonShapeProblem(bytes: Uint8Array, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): ApiError | undefined {
  const usual = limits === JSON_SHAPE_LIMITS;
  const members = usual ? USUAL_MEMBERS : new Uint32Array(limits.maxDepth + 1);
  const isObject = usual ? USUAL_IS_OBJECT : new Uint8Array(limits.maxDepth + 1);
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limits.maxDepth) return tooDeep(limits.maxDepth);
      members[depth] = 1;
      isObject[depth] = byte === OPEN_OBJECT ? 1 : 0;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (byte === COMMA && depth > 0) {
      if (isObject[depth] && ++members[depth] > limits.maxKeysPerObject) return tooManyKeys(limits.maxKeysPerObject);
      if (!isObject[depth] && ++members[depth] > limits.maxItemsPerArray) return tooManyItems(limits.maxItemsPerArray);
    }
  }
  return undefined;
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

/** body-parser's `verify` hook: runs on the raw bytes before JSON.parse, and only UTF-8 is read (RFC 8259 §8.1). */
export function verifyJsonShape(_req: unknown, _res: unknown, bytes: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8') throw Object.assign(new Error('not UTF-8'), { type: 'charset.unsupported' });
  const problem = jsonShapeProblem(bytes);
  if (problem) throw problem;
}
