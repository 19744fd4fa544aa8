export * from './certificates/client-certificates';
export * from './endpoint/select-endpoint';
export * from './exchange/post-soap-envelope';
export * from './exchange/soap-transport';
export * from './answers/read-answer';
export { bypassesProxy } from './egress/no-proxy';
export { redactUrl } from './egress/redact-url';
export type { EgressProxy } from './egress/authority-agent';
export * from './clock/check-authority-clock';
