/**
 * A request's object as the authority's rules read it: only the fields its schema names (invoice-request.generated.ts),
 * each of any value until a rule has judged it. A field the schema does not describe cannot be read.
 */
export type Fields<T> = { readonly [K in keyof T]?: unknown };
