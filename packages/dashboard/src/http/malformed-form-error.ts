/** A form body that is incomplete or not well-formed: rendered as a 400 page, never a 500. */
export class MalformedFormError extends Error {}

/** The same shape body-parser gives an oversized body, so one error page covers both parsers. */
export function formTooLarge(): Error {
  return Object.assign(new Error('the form exceeds the size limit'), { type: 'entity.too.large', status: 413 });
}
