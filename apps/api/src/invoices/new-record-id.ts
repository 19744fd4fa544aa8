import { v7 } from 'uuid';

/**
 * The id of a new chain record: a time-ordered UUID (version 7). Five indexes are keyed on a record's id (its key,
 * its invoice's records, its current record, its lines and its status events); ids that grow with time are added at
 * the right edge of each instead of on a random page of it, which took a fifth off PostgreSQL's CPU for a batch of
 * 1,000 records (docs/scaling.md) and keeps the pages a batch dirties few as the tables grow.
 */
export const newRecordId: () => string = v7;
