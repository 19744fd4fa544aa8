import { v7 } from 'uuid';

/**
 * The id of a new chain record: a time-ordered UUID (version 7). Five indexes are keyed on a record's id (its key,
 * its invoice's records, its current record, its lines and its status events). Ids that grow over time are added at
 * the right edge of each index, not on a random page, so a batch dirties few pages however large the tables grow
 * (docs/decisions/0022-chain-rows-as-typed-columns-and-time-ordered-record-ids.md).
 */
export const newRecordId: () => string = v7;
