export * from './build-qr-url';
