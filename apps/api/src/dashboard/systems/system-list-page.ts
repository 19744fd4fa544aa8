import type { SystemRow } from '@vf/db/src/stores';
import { html, type SafeHtml } from '../html/html';
import type { Page } from '../http/page-renderer';

export function systemListPage(o: { systems: SystemRow[]; notice: SafeHtml }): Page {
  return {
    title: 'Computer systems',
    nav: 'systems',
    body: () => html`<div class="page-header"><h1>Computer systems</h1><a class="button" href="/app/systems/new">Add a system</a></div>
      ${o.notice}
      <p class="lead">The billing software that produces the invoices. Every record sent to the authority names the system that generated it.</p>
      ${o.systems.length === 0
        ? html`<p class="empty">No systems yet. <a href="/app/systems/new">Add your billing software</a>.</p>`
        : html`<table class="responsive">
        <thead><tr><th scope="col">Name</th><th scope="col">Version</th><th scope="col">Vendor</th><th scope="col">Installation</th><th scope="col">Mode</th></tr></thead>
        <tbody>${o.systems.map(
          (s) => html`<tr>
            <td data-label="Name"><a href="/app/systems/${s.id}">${s.name}</a> <span class="muted">(${s.systemCode})</span></td>
            <td data-label="Version">${s.version}</td>
            <td data-label="Vendor">${s.vendorName} <span class="muted">${s.vendorNif}</span></td>
            <td data-label="Installation">${s.installationNumber}</td>
            <td data-label="Mode">${s.onlySupportsVerifactu ? 'VERI*FACTU only' : 'VERI*FACTU and other modes'}</td>
          </tr>`,
        )}</tbody>
      </table>`}`,
  };
}
