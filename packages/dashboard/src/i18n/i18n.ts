import { AsyncLocalStorage } from 'node:async_hooks';
import i18next, { type TFunction } from 'i18next';
import { en } from './catalogue/en';
import { es } from './catalogue/es';

export const LOCALES = ['es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'es';

/** The Intl locale each dashboard language formats with: Spanish as in Spain, English with day-first dates. */
export const INTL_LOCALE: Record<Locale, string> = { es: 'es-ES', en: 'en-GB' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

// One instance for the whole process, loaded synchronously from the catalogue; requests only take a fixed `t` from it.
const instance = i18next.createInstance();
void instance.init({
  resources: { es: { translation: es }, en: { translation: en } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  // Pages escape every value themselves (the `html` template); i18next must not escape a second time.
  interpolation: { escapeValue: false },
  initAsync: false,
});

export interface RequestLocale {
  locale: Locale;
  t: TFunction;
}

const current = new AsyncLocalStorage<RequestLocale>();

/** Runs `fn` (the rest of the request) with `locale` as the language every page and formatter uses. */
export function runInLocale<T>(locale: Locale, fn: () => T): T {
  return current.run({ locale, t: instance.getFixedT(locale) }, fn);
}

function active(): RequestLocale {
  // Outside a request (a unit test of a page helper) the default language applies.
  return current.getStore() ?? { locale: DEFAULT_LOCALE, t: instance.getFixedT(DEFAULT_LOCALE) };
}

/** The request's language. */
export function locale(): Locale {
  return active().locale;
}

/** Translates a catalogue key in the request's language (`count` picks the plural form). */
export function t(key: string, values?: Record<string, string | number>): string {
  return active().t(key, values ?? {});
}
