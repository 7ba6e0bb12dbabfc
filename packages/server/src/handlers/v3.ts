/**
 * The V3 operations kept for existing integrations, over the same orders as V4. V3 create-order
 * follows V3 rules: an offramp quote must carry ownerAddress (MISSING_OWNER_ADDRESS, checked before
 * the schema would answer INVALID_REQUEST for the same missing field), and no refund address is
 * required.
 */
import type { preValidationAsyncHookHandler } from 'fastify';
import { DomainError } from '../errors.js';
import { clientOf } from '../http/client.js';
import type { OperationHandlers } from '../http/register-operations.js';
import type { Services } from '../services.js';
import { v4Operations } from './v4.js';

/** Only a body that is an offramp quote and nothing else is missing its owner; any other shape is the schema's to refuse. */
const requireOwnerAddress: preValidationAsyncHookHandler = async (request) => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).join() !== 'offramp') return;
  const offramp = (body as { offramp: unknown }).offramp as { ownerAddress?: unknown } | null;
  if (
    offramp &&
    typeof offramp === 'object' &&
    !Array.isArray(offramp) &&
    (offramp.ownerAddress === undefined || offramp.ownerAddress === null || offramp.ownerAddress === '')
  ) {
    throw new DomainError('MISSING_OWNER_ADDRESS', 'a V3 offramp needs ownerAddress', null);
  }
};

export function v3Operations(services: Services): OperationHandlers {
  const v4 = v4Operations(services);
  return {
    createOrderV3: {
      preValidation: requireOwnerAddress,
      handler: async (request) => services.orders.create(request.body as Record<string, unknown>, 'v3', clientOf(request)),
    },
    getOrderV3: v4.getOrderV4!,
    getOrdersV3: v4.getOrdersV4!,
  };
}
