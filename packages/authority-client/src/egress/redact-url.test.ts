import { redactUrl } from './redact-url';

test("a logged proxy URL never shows the proxy's user or password", () => {
  expect(redactUrl('http://ops:s3cret@proxy.internal:3128')).toBe('http://redacted:redacted@proxy.internal:3128/');
  expect(redactUrl('http://proxy.internal:3128')).toBe('http://proxy.internal:3128/');
  expect(redactUrl('s3cret')).toBe('(not a URL)');
});
