import type { RegistrationItem } from '@vf/chain';
import type { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { systemNotFound, taxpayerNotFound } from './chain-problems';

/** An item whose ids cannot name anything in any account fails before the database is asked. */
export function unknownIds(item: Omit<RegistrationItem, 'answer'>): ApiError | undefined {
  if (!isUuid(item.invoice.taxpayerId)) return taxpayerNotFound();
  if (!isUuid(item.invoice.computerSystemId)) return systemNotFound();
  return undefined;
}
