import {
  join,
  present,
  readAmount,
  readDate,
  readFlag,
  readListedCode,
  readRate,
  readText,
  readUuid,
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

/**
 * A field of one value, read as the request's schema describes it: by its form (a UUID, a real calendar date, a text of
 * its length, a flag, an amount, a rate, a code of its list, an invoice number), refused with the authority's number
 * the schema gives for a value outside it, and held to its presence (`missingCode` where a rule of the authority names
 * the case of one left out). Only what the authority's rules add to the form is written here: the forms' readers.
 */
export function readField<S extends ObjectShape, K extends keyof S['forms'] & string>(
  shape: S,
  object: { readonly [key: string]: unknown },
  parent: string,
  key: K,
  issues: IssueCollector,
  missingCode?: number,
): Read<ValueOf<S, K>> {
  const value = readForm(shape, object[key], join(parent, key), key, issues);
  return present(value, shape.required, parent, key, issues, missingCode) as Read<ValueOf<S, K>>;
}

function readForm(shape: ObjectShape, value: unknown, path: string, key: string, issues: IssueCollector): Read<unknown> {
  const invalid = shape.invalid[key];
  switch (shape.forms[key]) {
    case 'uuid':
      return readUuid(value, path, issues);
    case 'date':
      return readDate(value, path, issues, invalid);
    case 'text':
      return readText(value, path, shape.maxCharacters[key], issues, invalid);
    case 'flag':
      return readFlag(value, path, issues, invalid);
    case 'amount':
      return readAmount(value, path, issues, invalid);
    case 'rate':
      return readRate(value, path, issues);
    case 'code':
      return readListedCode(value, path, shape.codes[key], issues, invalid);
    case 'invoice_number':
      return readInvoiceNumber(value, path, shape.maxCharacters[key], invalid, issues);
  }
}
