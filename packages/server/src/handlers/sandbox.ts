/**
 * Sandbox control, outside /v3 and /v4: tell the simulated indexers that a user sent a source
 * transaction, force an order's outcome, move the clock forward, look at the market maker's
 * liquidity, list the UTXOs the simulated Bitcoin chain gives an address (what a wallet's UTXO
 * source would answer), make the next requests fail unexpectedly. Only registered when the configuration
 * enables the sandbox; registered before the document's routes so that its hook applies to them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isValidAddress } from '../chains/addresses.js';
import { invalidRequest, orderNotFound } from '../errors.js';
import type { ForcedOutcome } from '../orders/lifecycle.js';
import { listLiquidity } from '../orders/queries.js';
import type { Services } from '../services.js';

type OrderRequest = FastifyRequest<{ Params: { id: string }; Body: unknown }>;

const outcomes: ForcedOutcome[] = ['success', 'failed', 'refunded'];

/** Ten years: far enough for any expiry or delay, near enough that every date stays valid. */
const maxAdvanceSeconds = 10 * 365 * 86_400;

export async function sandboxRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { lifecycle, view, clock, db, bitcoin } = services;
  const render = (order: Parameters<typeof view.render>[0]) => view.render(order, clock.now());

  // Faults on request, so that integrators (and the contract suite) see how the API answers one.
  let faults = 0;
  app.addHook('preHandler', async (request) => {
    if (faults > 0 && /^\/v[34]\//.test(request.url)) {
      faults--;
      throw new Error('sandbox: injected fault with internals that must not leak (10.0.0.7:5432)');
    }
  });
  app.post('/sandbox/faults', async (request: FastifyRequest<{ Body: unknown }>) => {
    const count = objectBody(request.body).count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 1000)
      throw invalidRequest('count must be a whole number from 0 to 1000', { message: 'count' });
    faults = count;
    return { faults };
  });

  app.post('/sandbox/orders/:id/source-sent', async (request: OrderRequest) => {
    const id = orderId(request);
    const txHash = optionalString(objectBody(request.body), 'txHash');
    return render(await lifecycle.sourceSent(id, txHash));
  });

  app.post('/sandbox/orders/:id/outcome', async (request: OrderRequest) => {
    const id = orderId(request);
    const body = objectBody(request.body);
    const outcome = optionalString(body, 'outcome') as ForcedOutcome | undefined;
    if (!outcome || !outcomes.includes(outcome))
      throw invalidRequest(`outcome must be one of ${outcomes.join(', ')}`, { expected: outcomes.join(' | '), actual: String(outcome) });
    return render(await lifecycle.force(id, outcome, optionalString(body, 'reason')));
  });

  app.post('/sandbox/advance', async (request: FastifyRequest<{ Body: unknown }>) => {
    const seconds = objectBody(request.body).seconds ?? 0;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0 || seconds > maxAdvanceSeconds) {
      throw invalidRequest(`seconds must be a whole number from 0 to ${maxAdvanceSeconds}`, { message: 'seconds' });
    }
    clock.advance(seconds);
    await lifecycle.tick();
    return { now: new Date(clock.now()).toISOString() };
  });

  // A wallet that builds its own payment needs its outputs and their funding transactions, as an
  // indexer would give them; the simulated chain then knows them when register-tx looks them up.
  app.get('/sandbox/bitcoin/utxos/:address', async (request: FastifyRequest<{ Params: { address: string } }>) => {
    const { address } = request.params;
    if (!isValidAddress('bitcoin', address, bitcoin.network))
      throw invalidRequest(`${address} is not a Bitcoin address of this network`, { expected: 'a Bitcoin address', actual: address });
    const utxos = await bitcoin.utxos(address);
    return { utxos: utxos.map(({ txid, vout, value, transactionHex }) => ({ txid, vout, value: value.toString(), transactionHex })) };
  });

  app.get('/sandbox/liquidity', async () => ({ liquidity: await listLiquidity(db) }));
}

/** A control's body is a JSON object, or nothing for its defaults. */
function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalidRequest('the body must be a JSON object', {
      expected: 'object',
      actual: body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body,
    });
  return body as Record<string, unknown>;
}

/** An id with a NUL character cannot be stored, so no order has it (and it must not reach a query). */
function orderId(request: OrderRequest): string {
  const { id } = request.params;
  if (id.includes('\u0000')) throw orderNotFound('no order has this id');
  return id;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || value.includes('\u0000'))
    throw invalidRequest(`${name} must be a non-empty string without NUL characters`, { message: name });
  return value;
}
