export * from './types';
export * from './validate-invoice-request';
export * from './issuer-rules';
export { characterCount } from './field-readers';
export { BREAKDOWN_LINE_FIELDS } from './read-breakdown';
export * from './invoice-request.generated';
export type { Fields } from './request-fields';
export { blankAtAnEnd, surroundingBlankMessage, trimSpaces } from './surrounding-blanks';
