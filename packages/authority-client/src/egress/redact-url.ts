/** A URL fit for a log: its credentials (the proxy's user and password) replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return parsed.toString();
    parsed.username = 'redacted';
    parsed.password = 'redacted';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}
