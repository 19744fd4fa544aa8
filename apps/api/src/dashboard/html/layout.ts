import type { AssetUrls } from '../assets/asset-router';
import { html, type HtmlValue, type SafeHtml } from './html';

export type NavKey = 'overview' | 'invoices' | 'corrective' | 'taxpayers' | 'systems' | 'api-key' | 'webhooks';

/** What every page needs from the request: the signed-in account (if any), its CSRF token and the asset URLs. */
export interface PageContext {
  assets: AssetUrls;
  csrfToken: string;
  account?: { name: string; email: string };
}

export interface PageOptions {
  title: string;
  body: HtmlValue;
  nav?: NavKey;
  /** JSON endpoint the script polls for the statuses of the invoices on the page. */
  statusUrl?: string;
  narrow?: boolean;
}

const NAV: ReadonlyArray<readonly [NavKey, string, string]> = [
  ['overview', 'Overview', '/app'],
  ['invoices', 'Invoices', '/app/invoices'],
  ['corrective', 'Corrective invoices', '/app/corrective-invoices'],
  ['taxpayers', 'Taxpayers', '/app/taxpayers'],
  ['systems', 'Systems', '/app/systems'],
  ['api-key', 'API key', '/app/api-key'],
  ['webhooks', 'Webhooks', '/app/webhooks'],
];

/** The hidden field every POST form carries. */
export function csrfField(ctx: PageContext): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}">`;
}

function navigation(ctx: PageContext, active: NavKey | undefined): SafeHtml {
  if (!ctx.account) return html``;
  const links = NAV.map(
    ([key, label, href]) => html`<li><a href="${href}"${key === active ? html` aria-current="page"` : ''}>${label}</a></li>`,
  );
  return html`<nav class="site-nav" aria-label="Main">
      <ul>
        ${links}
        <li><form method="post" action="/logout">${csrfField(ctx)}<button type="submit">Sign out</button></form></li>
      </ul>
    </nav>
    <span class="account-name">${ctx.account.name} (${ctx.account.email})</span>`;
}

export function layout(ctx: PageContext, page: PageOptions): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${page.title} · VERI*FACTU dashboard</title>
  <link rel="stylesheet" href="${ctx.assets.css}">
  <script src="${ctx.assets.js}" defer></script>
</head>
<body${page.statusUrl ? html` data-status-url="${page.statusUrl}"` : ''}>
  <a class="skip-link" href="#main">Skip to content</a>
  <header class="site-header">
    <div class="site-header__inner">
      <a class="brand" href="${ctx.account ? '/app' : '/login'}">VERI*FACTU <small>registration dashboard</small></a>
      ${navigation(ctx, page.nav)}
    </div>
  </header>
  <main id="main" tabindex="-1"${page.narrow ? html` class="narrow"` : ''}>
    ${page.body}
  </main>
  <div id="live-status" class="visually-hidden" aria-live="polite"></div>
  <footer class="site-footer">Invoices are sent to the tax authority (AEAT) by the registration service; sandbox taxpayers go to its test environment.</footer>
</body>
</html>`;
}
