import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';

/** A freshly issued key: shown this once, with a copy button the script reveals. */
export function newKeyPanel(apiKey: string): SafeHtml {
  return html`<section class="card" aria-labelledby="new-key-title">
    <h2 id="new-key-title">${t('apiKey.newTitle')}</h2>
    <div class="notice notice--warn"><p>${tHtml('apiKey.onlyOnce')}</p></div>
    <div class="secret">
      <code id="new-api-key" data-testid="new-api-key">${apiKey}</code>
      <button type="button" class="button button--secondary button--small" data-copy-target="#new-api-key" hidden>${t('apiKey.copy')}</button>
    </div>
    <p class="hint">${tHtml('apiKey.howToSend')}</p>
  </section>`;
}
