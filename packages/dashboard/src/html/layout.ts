import type { AssetUrls } from '../assets/asset-router';
import { LOCALES, t, type Locale } from '../i18n/i18n';
import { html, type HtmlValue, type SafeHtml } from './html';

export type NavKey = 'overview' | 'invoices' | 'corrective' | 'taxpayers' | 'systems' | 'api-key' | 'webhooks' | 'tax-ids';

/** What every page needs from the request: the signed-in account (if any), its CSRF token, the language and the asset URLs. */
export interface PageContext {
  assets: AssetUrls;
  csrfToken: string;
  account?: { name: string; email: string };
  locale: Locale;
  /** This same page in each language: the targets of the language switch. */
  switchUrls: Record<Locale, string>;
}

export interface PageOptions {
  title: string;
  body: HtmlValue;
  nav?: NavKey;
  /** JSON endpoint the script polls for the statuses of the invoices on the page. */
  statusUrl?: string;
  narrow?: boolean;
}

const NAV: ReadonlyArray<readonly [NavKey, string]> = [
  ['overview', '/app'],
  ['invoices', '/app/invoices'],
  ['corrective', '/app/corrective-invoices'],
  ['taxpayers', '/app/taxpayers'],
  ['systems', '/app/systems'],
  ['api-key', '/app/api-key'],
  ['webhooks', '/app/webhooks'],
  ['tax-ids', '/app/tax-ids'],
];

/** Each language named in itself, so a reader of the other one still finds it. */
const LANGUAGE_NAMES: Record<Locale, string> = { es: 'Español', en: 'English' };

/** The hidden field every POST form carries. */
export function csrfField(ctx: PageContext): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}">`;
}

function navigation(ctx: PageContext, active: NavKey | undefined): SafeHtml {
  if (!ctx.account) return html``;
  const links = NAV.map(
    ([key, href]) => html`<li><a href="${href}"${key === active ? html` aria-current="page"` : ''}>${t(`nav.${key}`)}</a></li>`,
  );
  return html`<nav class="site-nav" aria-label="${t('layout.mainNav')}">
      <ul>
        ${links}
        <li><form method="post" action="/logout">${csrfField(ctx)}<button type="submit">${t('layout.signOut')}</button></form></li>
      </ul>
    </nav>`;
}

function languageSwitch(ctx: PageContext): SafeHtml {
  return html`<nav class="language-switch" aria-label="${t('layout.language')}" data-testid="language-switch"><ul>${LOCALES.map((l) =>
    l === ctx.locale
      ? html`<li><span aria-current="true" lang="${l}">${LANGUAGE_NAMES[l]}</span></li>`
      : html`<li><a href="${ctx.switchUrls[l]}" lang="${l}" hreflang="${l}">${LANGUAGE_NAMES[l]}</a></li>`,
  )}</ul></nav>`;
}

export function layout(ctx: PageContext, page: PageOptions): SafeHtml {
  return html`<!doctype html>
<html lang="${ctx.locale}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${t('layout.title', { title: page.title })}</title>
  <link rel="stylesheet" href="${ctx.assets.css}">
  <script src="${ctx.assets.js}" defer></script>
</head>
<body${page.statusUrl ? html` data-status-url="${page.statusUrl}"` : ''} data-text-copied="${t('script.copied')}" data-text-copied-announce="${t('script.copiedAnnounce')}" data-text-copy-failed="${t('script.copyFailed')}" data-text-invoice="${t('script.invoice')}">
  <a class="skip-link" href="#main">${t('layout.skip')}</a>
  <header class="site-header">
    <div class="site-header__inner">
      <div class="site-header__top">
        <a class="brand" href="${ctx.account ? '/app' : '/login'}">VERI*FACTU <small>${t('layout.brand')}</small></a>
        ${languageSwitch(ctx)}
      </div>
      ${navigation(ctx, page.nav)}
      ${ctx.account ? html`<span class="account-name">${ctx.account.name} (${ctx.account.email})</span>` : ''}
    </div>
  </header>
  <main id="main" tabindex="-1"${page.narrow ? html` class="narrow"` : ''}>
    ${page.body}
  </main>
  <div id="live-status" class="visually-hidden" aria-live="polite"></div>
  <footer class="site-footer">${t('layout.footer')}</footer>
</body>
</html>`;
}
