import type { ValidationIssue } from './types';

/** Gathers every error and warning of one request, so a client sees all of them at once. */
export class IssueCollector {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];
  // Invoice-level rules triggered by several lines (e.g. two regime-14 lines) report once. A set of what was
  // reported keeps that check constant-time: scanning the list made a body with many problems cost their square.
  // Made with the first issue: most bodies have none.
  private reported: Set<string> | undefined;

  error(field: string, code: string, message: string, authorityCode?: number): void {
    this.addOnce(this.errors, issue(field, code, message, authorityCode));
  }

  warning(field: string, code: string, message: string, authorityCode?: number): void {
    this.addOnce(this.warnings, issue(field, code, message, authorityCode));
  }

  private addOnce(list: ValidationIssue[], candidate: ValidationIssue): void {
    const key = JSON.stringify([list === this.errors, candidate.field, candidate.code, candidate.message]);
    this.reported ??= new Set();
    if (this.reported.has(key)) return;
    this.reported.add(key);
    list.push(candidate);
  }
}

function issue(field: string, code: string, message: string, authorityCode?: number): ValidationIssue {
  return authorityCode === undefined ? { field, code, message } : { field, code, message, authority_code: authorityCode };
}
