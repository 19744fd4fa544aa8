import type { SystemRow } from '@vf/db';
import { errorSummary, type FormErrors } from '../html/form-fields';
import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { systemFields, type SystemFormValues } from './system-form';

export function systemNewPage(o: { values: SystemFormValues; errors?: FormErrors }): Page {
  const errors = o.errors ?? {};
  return {
    title: t('systems.newTitle'),
    nav: 'systems',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/systems">${t('systems.title')}</a></p>
      <h1>${t('systems.newTitle')}</h1>
      ${errorSummary(errors)}
      <form method="post" action="/app/systems" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${systemFields(o.values, errors)}
        <div class="actions"><button type="submit" class="button">${t('systems.submitNew')}</button><a href="/app/systems">${t('systems.cancel')}</a></div>
      </form>`,
  };
}

export function systemDetailPage(o: {
  system: SystemRow;
  values: SystemFormValues;
  errors?: FormErrors;
  notice: SafeHtml;
  deleteRefused?: string;
}): Page {
  const errors = o.errors ?? {};
  const s = o.system;
  return {
    title: s.name,
    nav: 'systems',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/systems">${t('systems.title')}</a></p>
      <h1>${s.name} <span class="muted">${s.version}</span></h1>
      ${o.notice}
      <section class="card" aria-labelledby="summary-title">
        <h2 id="summary-title" class="visually-hidden">${t('systems.summary')}</h2>
        <dl class="facts">
          <dt>Id (computer_system_id)</dt><dd><code>${s.id}</code></dd>
          <dt>${t('systems.lastChanged')}</dt><dd>${formatDateTime(s.updatedAt)}</dd>
        </dl>
        <p class="hint">${t('systems.changesApply')}</p>
      </section>
      <section class="card" aria-labelledby="edit-title">
        <h2 id="edit-title">${t('systems.details')}</h2>
        ${errorSummary(errors)}
        <form method="post" action="/app/systems/${s.id}" class="stack" novalidate>
          ${csrfField(ctx)}
          ${systemFields(o.values, errors)}
          <div class="actions"><button type="submit" class="button">${t('systems.save')}</button></div>
        </form>
      </section>
      <section class="card" aria-labelledby="delete-title">
        <h2 id="delete-title">${t('systems.deleteTitle')}</h2>
        ${o.deleteRefused ? html`<div class="notice notice--error" role="alert"><p>${o.deleteRefused}</p></div>` : ''}
        <p>${t('systems.deleteRule')}</p>
        <form method="post" action="/app/systems/${s.id}/delete" data-confirm="${t('systems.deleteConfirm', { name: s.name })}">
          ${csrfField(ctx)}<button type="submit" class="button button--danger">${t('systems.delete')}</button>
        </form>
      </section>`,
  };
}
