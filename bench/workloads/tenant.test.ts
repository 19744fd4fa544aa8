import Joi from 'joi';
import { benchEmail } from './tenant';

describe('benchEmail', () => {
  it('is an address the API accepts for every workload label, the longest included', () => {
    // As the API's register schema checks it (apps/api/src/auth/auth-schemas.ts): joi's email() allows a local
    // part of at most 64 characters.
    const email = Joi.string().email({ tlds: { allow: false } });
    for (const label of ['scale', 'scale-signed', 'worker-running-bulk-nvf', 'worker-running-seq-nvf']) {
      const address = benchEmail(label);
      expect(email.validate(address).error).toBeUndefined();
    }
  });

  it('differs from one account to the next of one label', () => {
    expect(benchEmail('worker-running-seq')).not.toBe(benchEmail('worker-running-seq'));
  });
});
