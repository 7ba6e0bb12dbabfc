/**
 * Sandbox control, outside /v3 and /v4: tell the simulated indexers that a user sent a source
 * transaction, force an order's outcome, move the clock forward, look at the market maker's
 * liquidity. Only registered when the configuration enables the sandbox.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidRequest } from '../http/errors.js';
import type { ForcedOutcome } from '../orders/lifecycle.js';
import type { Services } from '../services.js';

type OrderRequest = FastifyRequest<{ Params: { id: string }; Body: Record<string, unknown> | undefined }>;

const outcomes: ForcedOutcome[] = ['success', 'failed', 'refunded'];

export async function sandboxRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { lifecycle, view, clock, db } = services;
  const render = (order: Parameters<typeof view.render>[0]) => view.render(order, clock.now());

  app.post('/sandbox/orders/:id/source-sent', async (request: OrderRequest) => {
    const txHash = optionalString(request.body, 'txHash');
    return render(await lifecycle.sourceSent(request.params.id, txHash));
  });

  app.post('/sandbox/orders/:id/outcome', async (request: OrderRequest) => {
    const outcome = optionalString(request.body, 'outcome') as ForcedOutcome | undefined;
    if (!outcome || !outcomes.includes(outcome)) throw invalidRequest(`outcome must be one of ${outcomes.join(', ')}`, { expected: outcomes.join(' | '), actual: String(outcome) });
    return render(await lifecycle.force(request.params.id, outcome, optionalString(request.body, 'reason')));
  });

  app.post('/sandbox/advance', async (request: FastifyRequest<{ Body: Record<string, unknown> | undefined }>) => {
    const seconds = request.body?.seconds ?? 0;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0) throw invalidRequest('seconds must be a whole number of at least 0', { message: 'seconds' });
    clock.advance(seconds);
    await lifecycle.tick();
    return { now: new Date(clock.now()).toISOString() };
  });

  app.get('/sandbox/liquidity', async () => ({
    liquidity: await db.query<{ chain: string; token: string; total: string; reserved: string }>(
      'SELECT chain, token, total::text AS total, reserved::text AS reserved FROM liquidity ORDER BY chain, token',
    ),
  }));
}

function optionalString(body: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = body?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw invalidRequest(`${name} must be a non-empty string`, { message: name });
  return value;
}
