/** One field-level problem in a 422 answer. */
export interface FieldIssue {
  field: string;
  code: string;
  message: string;
  /** The authority's error code the same rule would trigger, when there is one. */
  authority_code?: number;
}
