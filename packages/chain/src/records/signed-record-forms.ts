import { useSignedRecordForms } from '@vf/db';
import { signedRecordForms } from './chain-record-row';

// Loaded with the package: the store keeps signed records as parts, and rebuilds them, with these writers.
useSignedRecordForms(signedRecordForms);

export { signedRecordForms };
