import { registeredInBatch } from './bulk-load';

describe('registeredInBatch', () => {
  it('counts every item of a plain success and none of a failure', () => {
    expect(registeredInBatch(201, { data: [] }, 1000)).toBe(1000);
    expect(registeredInBatch(422, { code: 'validation_failed' }, 1000)).toBe(0);
  });

  it('counts the successful items of a 207 Multi-Status, by their own status or the absence of a problem code', () => {
    const items = [{ status: 201, data: { id: 'a' } }, { status: 409, code: 'duplicate_invoice' }, { status: 422, code: 'validation_failed' }];
    expect(registeredInBatch(207, { results: items }, 3)).toBe(1);
    expect(registeredInBatch(207, { data: [{ data: { id: 'a' } }, { code: 'duplicate_invoice' }] }, 2)).toBe(1);
    expect(registeredInBatch(207, [{ status: 201 }, { status: 201 }], 2)).toBe(2);
  });

  it('counts nothing in a 207 whose items it cannot find', () => {
    expect(registeredInBatch(207, { message: 'mixed' }, 5)).toBe(0);
  });
});
