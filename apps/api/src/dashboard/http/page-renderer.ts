import type { Request, Response } from 'express';
import type { AssetUrls } from '../assets/asset-router';
import type { HtmlValue } from '../html/html';
import { layout, type PageContext, type PageOptions } from '../html/layout';
import { csrfTokenFor } from '../session/csrf';
import { sessionOf } from '../session/session-cookie';

export interface Page extends Omit<PageOptions, 'body'> {
  body: (ctx: PageContext) => HtmlValue;
}

export type RenderPage = (req: Request, res: Response, page: Page, status?: number) => void;

/** Renders a page inside the layout, with the request's CSRF token and signed-in account. */
export function createPageRenderer(assets: AssetUrls): RenderPage {
  return (req, res, page, status = 200) => {
    const session = sessionOf(res);
    const ctx: PageContext = {
      assets,
      csrfToken: csrfTokenFor(req, res),
      account: session ? { name: session.accountName, email: session.accountEmail } : undefined,
    };
    // Pages show account data and one-time secrets: never cache them anywhere.
    res.setHeader('Cache-Control', 'no-store');
    res.status(status).type('html').send(layout(ctx, { ...page, body: page.body(ctx) }).value);
  };
}
