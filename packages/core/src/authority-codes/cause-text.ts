/** One language's plain words for a cause: what happened, and what to do next. */
export interface PlainWords {
  explanation: string;
  nextStep: string;
}

/** A cause explained in Spanish (the dashboard's language, shown first) and English (the API's). */
export interface CauseText {
  es: PlainWords;
  en: PlainWords;
}

export interface NextStep {
  es: string;
  en: string;
}

export function cause(es: string, en: string, next: NextStep): CauseText {
  return { es: { explanation: es, nextStep: next.es }, en: { explanation: en, nextStep: next.en } };
}

/** "Explanation. Next step." in one language: what the API's `authority_message` and the dashboard show. */
export function inPlainWords(text: CauseText, lang: 'es' | 'en'): string {
  const { explanation, nextStep } = text[lang];
  return `${explanation} ${nextStep}`;
}
