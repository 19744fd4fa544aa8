import { html, type SafeHtml } from '../html/html';

/** A freshly issued key: shown this once, with a copy button the script reveals. */
export function newKeyPanel(apiKey: string): SafeHtml {
  return html`<section class="card" aria-labelledby="new-key-title">
    <h2 id="new-key-title">Your new API key</h2>
    <div class="notice notice--warn"><p><strong>Copy it now: it is shown only this once.</strong> We keep only a fingerprint of it, so nobody can show it to you again. If you lose it, regenerate a new one.</p></div>
    <div class="secret">
      <code id="new-api-key" data-testid="new-api-key">${apiKey}</code>
      <button type="button" class="button button--secondary button--small" data-copy-target="#new-api-key" hidden>Copy</button>
    </div>
    <p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code> on every API call.</p>
  </section>`;
}
