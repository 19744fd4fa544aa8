import type { ValidationIssue } from './types';

/** Gathers every error and warning of one request, so a client sees all of them at once. */
export class IssueCollector {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];

  error(field: string, code: string, message: string, authorityCode?: number): void {
    addOnce(this.errors, issue(field, code, message, authorityCode));
  }

  warning(field: string, code: string, message: string, authorityCode?: number): void {
    addOnce(this.warnings, issue(field, code, message, authorityCode));
  }
}

// Invoice-level rules triggered by several lines (e.g. two regime-14 lines) report once.
function addOnce(list: ValidationIssue[], candidate: ValidationIssue): void {
  if (!list.some((i) => i.field === candidate.field && i.code === candidate.code && i.message === candidate.message)) list.push(candidate);
}

function issue(field: string, code: string, message: string, authorityCode?: number): ValidationIssue {
  return authorityCode === undefined ? { field, code, message } : { field, code, message, authority_code: authorityCode };
}
