import { html } from '../html/html';
import type { Page } from './page-renderer';

export function notFoundPage(): Page {
  return {
    title: 'Not found',
    body: () => html`<h1>Not found</h1>
      <p>This page does not exist in your account. It may have been deleted, or the link may be mistyped.</p>
      <p><a href="/app">Go to the overview</a></p>`,
  };
}

export function csrfRefusedPage(): Page {
  return {
    title: 'Form refused',
    body: () => html`<h1>This form could not be accepted</h1>
      <p>The form was out of date or did not come from this dashboard, so nothing was changed.</p>
      <p>Go back, reload the page and submit it again. If you signed out in another tab, sign in first.</p>
      <p><a href="/app">Go to the overview</a></p>`,
  };
}

export function badFormPage(detail: string): Page {
  return {
    title: 'Form not received',
    body: () => html`<h1>The form could not be read</h1><p>${detail}. Nothing was changed; go back and try again.</p>`,
  };
}

export function serverErrorPage(requestId: string): Page {
  return {
    title: 'Something went wrong',
    body: () => html`<h1>Something went wrong on our side</h1>
      <p>Nothing you did caused this. Try again in a moment; if it keeps happening, quote this reference: <code>${requestId}</code>.</p>`,
  };
}

export function refusedPage(title: string, detail: string): Page {
  return {
    title,
    body: () => html`<h1>${title}</h1><p>${detail}</p><p><a href="/app">Go to the overview</a></p>`,
  };
}
