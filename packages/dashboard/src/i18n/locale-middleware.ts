import type { Request, RequestHandler } from 'express';
import { DEFAULT_LOCALE, isLocale, LOCALES, runInLocale, type Locale } from './i18n';

export const LOCALE_COOKIE = 'vf_lang';
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/** The remembered choice first, then the browser's preference, then Spanish: the dashboard's users are Spanish businesses. */
export function localeOf(req: Request): Locale {
  const chosen: unknown = req.cookies?.[LOCALE_COOKIE];
  if (isLocale(chosen)) return chosen;
  const preferred = req.acceptsLanguages(...LOCALES);
  return isLocale(preferred) ? preferred : DEFAULT_LOCALE;
}

/**
 * `?lang=es|en` on any page switches the language: the choice is remembered in a cookie and the same page is loaded
 * again without the parameter (a redirect to the same path, so it can never lead elsewhere). Every other request
 * runs in its language.
 */
export const localeMiddleware: RequestHandler = (req, res, next) => {
  const asked = req.query.lang;
  if (req.method === 'GET' && isLocale(asked)) {
    res.cookie(LOCALE_COOKIE, asked, { httpOnly: true, sameSite: 'lax', secure: req.secure, maxAge: ONE_YEAR_MS, path: '/' });
    const rest = new URLSearchParams(
      Object.entries(req.query).filter(([k, v]) => k !== 'lang' && typeof v === 'string') as [string, string][],
    ).toString();
    res.redirect(303, `${req.path}${rest ? `?${rest}` : ''}`);
    return;
  }
  runInLocale(localeOf(req), next);
};

/** The current page with `lang` set: the target of the language switch. */
export function switchUrl(req: Request, to: Locale): string {
  const params = new URLSearchParams(
    Object.entries(req.query).filter(([k, v]) => k !== 'lang' && typeof v === 'string') as [string, string][],
  );
  params.set('lang', to);
  return `${req.path}?${params.toString()}`;
}
