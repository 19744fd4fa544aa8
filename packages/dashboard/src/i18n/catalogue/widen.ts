/** A catalogue's shape from its Spanish texts: every text a string, so another language may word it differently. */
export type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
