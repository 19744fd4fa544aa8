export * from './certificates/client-certificates';
export * from './endpoint/select-endpoint';
export * from './exchange/post-soap-envelope';
export * from './exchange/soap-transport';
export * from './answers/read-answer';
export * from './clock/check-authority-clock';
