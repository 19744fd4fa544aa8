export * from './api-fixtures';
export * from './test-app';
export { chromiumPath } from './chromium-path';
export { screenshotsDir } from './screenshots-dir';
export { pngPixels, qrPixels } from './qr-pixels';
export { csrfTokenIn, signIn } from '@vf/dashboard/testing';
// For the dashboard's tests (packages/dashboard), which drive the dashboard as the API mounts it.
export { lastTwelveMonths } from '../account/monthly-registrations';
export { expectExactChain } from '../invoices/testing/expect-exact-chain';
