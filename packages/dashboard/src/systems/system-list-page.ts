import type { SystemRow } from '@vf/db';
import { html, type SafeHtml } from '../html/html';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';

export function systemListPage(o: { systems: SystemRow[]; notice: SafeHtml }): Page {
  return {
    title: t('systems.title'),
    nav: 'systems',
    body: () => html`<div class="page-header"><h1>${t('systems.title')}</h1><a class="button" href="/app/systems/new">${t('systems.add')}</a></div>
      ${o.notice}
      <p class="lead">${t('systems.lead')}</p>
      ${
        o.systems.length === 0
          ? html`<p class="empty">${tHtml('systems.none')}</p>`
          : html`<table class="responsive">
        <thead><tr><th scope="col">${t('systems.colName')}</th><th scope="col">${t('systems.colVersion')}</th><th scope="col">${t('systems.colVendor')}</th><th scope="col">${t('systems.colInstallation')}</th><th scope="col">${t('systems.colMode')}</th></tr></thead>
        <tbody>${o.systems.map(
          (s) => html`<tr>
            <td data-label="${t('systems.colName')}"><a href="/app/systems/${s.id}">${s.name}</a> <span class="muted">(${s.systemCode})</span></td>
            <td data-label="${t('systems.colVersion')}">${s.version}</td>
            <td data-label="${t('systems.colVendor')}">${s.vendorName} <span class="muted">${s.vendorNif}</span></td>
            <td data-label="${t('systems.colInstallation')}">${s.installationNumber}</td>
            <td data-label="${t('systems.colMode')}">${s.onlySupportsVerifactu ? t('systems.onlyVerifactu') : t('systems.otherModes')}</td>
          </tr>`,
        )}</tbody>
      </table>`
      }`,
  };
}
