import type { Request, Response } from 'express';
import type { AssetUrls } from '../assets/asset-router';
import type { HtmlValue } from '../html/html';
import { layout, type PageContext, type PageOptions } from '../html/layout';
import { locale } from '../i18n/i18n';
import { switchUrl } from '../i18n/locale-middleware';
import { csrfTokenFor } from '../session/csrf';
import { sessionOf } from '../session/session-cookie';

export interface Page extends Omit<PageOptions, 'body'> {
  body: (ctx: PageContext) => HtmlValue;
}

export type RenderPage = (req: Request, res: Response, page: Page, status?: number) => void;

/** Renders a page inside the layout, with the request's CSRF token, language and signed-in account. */
export function createPageRenderer(assets: AssetUrls): RenderPage {
  return (req, res, page, status = 200) => {
    const session = sessionOf(res);
    const ctx: PageContext = {
      assets,
      csrfToken: csrfTokenFor(req, res),
      account: session ? { name: session.accountName, email: session.accountEmail } : undefined,
      locale: locale(),
      // A POST answered with a page (a form with errors) switches language on the page the form came from.
      switchUrls: { es: switchUrl(req, 'es'), en: switchUrl(req, 'en') },
    };
    // Pages show account data and one-time secrets: never cache them anywhere.
    res.setHeader('Cache-Control', 'no-store');
    // Caches and proxies must not hand one language's page to a reader of the other.
    res.vary('Accept-Language');
    res
      .status(status)
      .type('html')
      .send(layout(ctx, { ...page, body: page.body(ctx) }).value);
  };
}
