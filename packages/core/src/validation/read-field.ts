import {
  join,
  readAmount,
  readDate,
  readFlag,
  readListedCode,
  readRate,
  readText,
  readUuid,
  required,
  type Amount,
  type CodeList,
  type Rate,
  type Read,
  type RequiredFields,
} from './field-readers';
import { REQUEST_CODES, REQUEST_FORMS, REQUEST_INVALID_CODES, REQUEST_MAX_CHARACTERS, REQUEST_REQUIRED } from './invoice-request.generated';
import type { IssueCollector } from './issue-collector';
import { readInvoiceNumber } from './read-invoice-number';

/** What a field is read as, by the form its schema gives it (REQUEST_FORMS). */
interface FormValues {
  uuid: string;
  date: string;
  text: string;
  flag: boolean;
  amount: Amount;
  rate: Rate;
  code: string;
  invoice_number: string;
}
type Form = keyof FormValues;

/** One object of the request as its schema describes it (invoice-request.generated.ts). */
export interface ObjectShape {
  readonly forms: { readonly [key: string]: Form };
  readonly required: RequiredFields;
  readonly codes: { readonly [key: string]: CodeList<string> };
  readonly invalid: { readonly [key: string]: number };
  readonly maxCharacters: { readonly [key: string]: number };
}

type Objects = keyof typeof REQUEST_FORMS;

/** The shape of one object of the request, from the tables generated from its schema. */
export interface ShapeOf<N extends Objects> {
  forms: (typeof REQUEST_FORMS)[N];
  required: (typeof REQUEST_REQUIRED)[N];
  codes: (typeof REQUEST_CODES)[N];
  invalid: (typeof REQUEST_INVALID_CODES)[N];
  maxCharacters: (typeof REQUEST_MAX_CHARACTERS)[N];
}

export function shapeOf<N extends Objects>(name: N): ShapeOf<N> {
  return {
    forms: REQUEST_FORMS[name],
    required: REQUEST_REQUIRED[name],
    codes: REQUEST_CODES[name],
    invalid: REQUEST_INVALID_CODES[name],
    maxCharacters: REQUEST_MAX_CHARACTERS[name],
  };
}

/** A field of one value in the shape `S`: the value its form reads, one of its list's values for a code. */
export type ValueOf<S extends ObjectShape, K extends keyof S['forms']> = K extends keyof S['codes']
  ? S['codes'][K] extends CodeList<infer V>
    ? V
    : never
  : S['forms'][K] extends Form
    ? FormValues[S['forms'][K]]
    : never;

/** Reads one field: its value, the path of the object holding it ('' for the request), and `missingCode` where a rule
 * of the authority names the case of the field left out. */
export type FieldReader<T> = (value: unknown, parent: string, issues: IssueCollector, missingCode?: number) => Read<T>;

export type FieldReaders<S extends ObjectShape> = { readonly [K in keyof S['forms'] & string]: FieldReader<ValueOf<S, K>> };

/**
 * A reader for each field of one value of an object, as the request's schema describes it: by its form (a UUID, a real
 * calendar date, a text of its length, a flag, an amount, a rate, a code of its list, an invoice number), refused with
 * the authority's number the schema gives for a value outside it, and held to its presence. Only what the authority's
 * rules add to a form is written here, in the forms' readers. Made once per object, so that reading a field looks
 * nothing up.
 */
export function fieldReaders<S extends ObjectShape>(shape: S): FieldReaders<S> {
  const readers: Record<string, FieldReader<unknown>> = {};
  for (const key of Object.keys(shape.forms)) readers[key] = fieldReader(shape, key);
  return readers as FieldReaders<S>;
}

// One function per form, each reading its field and holding it to its presence: a call site of the rules calls one
// of them, which the engine can then inline (a shared reader calling the form's reader could not be).
function fieldReader(shape: ObjectShape, key: string): FieldReader<unknown> {
  const invalid = shape.invalid[key];
  const maxLength = shape.maxCharacters[key];
  const list = shape.codes[key];
  const missing = shape.required[key];
  switch (shape.forms[key]) {
    case 'uuid':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readUuid(value, path, issues), path, issues, missing, missingCode);
      };
    case 'date':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readDate(value, path, issues, invalid), path, issues, missing, missingCode);
      };
    case 'text':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readText(value, path, maxLength, issues, invalid), path, issues, missing, missingCode);
      };
    case 'flag':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readFlag(value, path, issues, invalid), path, issues, missing, missingCode);
      };
    case 'amount':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readAmount(value, path, issues, invalid), path, issues, missing, missingCode);
      };
    case 'rate':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readRate(value, path, issues), path, issues, missing, missingCode);
      };
    case 'code':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readListedCode(value, path, list, issues, invalid), path, issues, missing, missingCode);
      };
    case 'invoice_number':
      return (value, parent, issues, missingCode) => {
        const path = join(parent, key);
        return held(readInvoiceNumber(value, path, maxLength, invalid, issues), path, issues, missing, missingCode);
      };
  }
}

/** A value as read, or, left out of a field the schema requires, a "required" error with the schema's number. */
function held<T>(read: Read<T>, path: string, issues: IssueCollector, missing: number | null | undefined, missingCode?: number): Read<T> {
  if (read !== undefined || missing === undefined) return read;
  return required(read, path, issues, missingCode ?? missing ?? undefined);
}
