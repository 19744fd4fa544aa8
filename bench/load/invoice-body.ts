import { f1Request } from '@vf/core/testing';
import type { Tenant } from './load-spec';

/** Today in Europe/Madrid (the API validates invoice dates against Spanish time), as YYYY-MM-DD. */
export function madridDate(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * Builds the i-th invoice of a load from the shared F1 fixture (one 21% line, 100.00 + 21.00): a unique number, the taxpayers taken in
 * turn so that a wide load spreads evenly over every chain.
 */
export function invoiceFactory(tenant: Tenant, numberPrefix: string) {
  let next = 0;
  let date = madridDate();
  let dateCheckedAt = Date.now();
  return function nextInvoice(): Record<string, unknown> {
    const i = next++;
    // Re-read the date now and then: a run across midnight must not send tomorrow's invoices as today's.
    if (Date.now() - dateCheckedAt > 1000) {
      date = madridDate();
      dateCheckedAt = Date.now();
    }
    return f1Request({
      taxpayer_id: tenant.taxpayerIds[i % tenant.taxpayerIds.length],
      computer_system_id: tenant.systemId,
      invoice_number: `${numberPrefix}-${i + 1}`,
      invoice_date: date,
    });
  };
}
