import { webhookEventsFor } from './webhook-events';

describe('webhookEventsFor', () => {
  it('announces a new registration or cancellation once, by its first history row', () => {
    expect(webhookEventsFor({ recordType: 'registration', status: 'queued', previousStatus: null })).toEqual(['invoice.registered']);
    expect(webhookEventsFor({ recordType: 'cancellation', status: 'queued', previousStatus: null })).toEqual(['invoice.cancelled']);
  });

  it('reports a change of status, then its outcome', () => {
    expect(webhookEventsFor({ recordType: 'registration', status: 'sent', previousStatus: 'queued' })).toEqual(['invoice.status_changed']);
    expect(webhookEventsFor({ recordType: 'registration', status: 'accepted_with_warnings', previousStatus: 'sent' })).toEqual([
      'invoice.status_changed',
      'invoice.accepted',
    ]);
    expect(webhookEventsFor({ recordType: 'registration', status: 'rejected', previousStatus: 'sent' })).toEqual([
      'invoice.status_changed',
      'invoice.rejected',
    ]);
    expect(webhookEventsFor({ recordType: 'registration', status: 'error', previousStatus: 'sent' })).toEqual([
      'invoice.status_changed',
      'invoice.error',
    ]);
  });

  it('stays silent when a history row repeats the status (a retry noted in the history)', () => {
    expect(webhookEventsFor({ recordType: 'registration', status: 'queued', previousStatus: 'queued' })).toEqual([]);
  });
});
