/**
 * Sandbox control, outside /v3 and /v4: tell the simulated indexers that a user sent a source
 * transaction, force an order's outcome, move the clock forward, set or walk the USD prices, look
 * at the market maker's liquidity, list the UTXOs the simulated Bitcoin chain gives an address (what
 * a wallet's UTXO source would answer), make the next requests fail unexpectedly. Only registered
 * when the configuration enables the sandbox; registered before the document's routes so that its
 * hook applies to them. What the controls set lives in the store (sandbox/state.ts), so every
 * process of a deployment answers alike: each request first reads what other processes changed.
 *
 * The controls act on every user (anyone could settle another's order, move the clock, make requests
 * fail), so they answer only the operator: a caller with `sandboxOperatorKey` in X-Sandbox-Key when
 * one is configured, else a caller on this machine; and no page of an origin CORS does not allow.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isValidAddress } from '../chains/addresses.js';
import { type GatewayConfig, priceWalkProblems, type PriceWalk } from '../config/config.js';
import { invalidRequest, orderNotFound } from '../errors.js';
import { isAllowedOrigin } from '../http/cors.js';
import { forbidden, unauthorized } from '../http/failures.js';
import type { Log } from '../log.js';
import type { ForcedOutcome } from '../orders/lifecycle.js';
import { priceKey, withPrice, withWalk } from '../sandbox/prices.js';
import type { SandboxState } from '../sandbox/state.js';
import type { Services } from '../services.js';

type OrderRequest = FastifyRequest<{ Params: { id: string }; Body: unknown }>;

const outcomes: ForcedOutcome[] = ['success', 'failed', 'refunded'];

/** Ten years: far enough for any expiry or delay, near enough that every date stays valid. */
const maxAdvanceSeconds = 10 * 365 * 86_400;

/** The walk's deviation when a control starts it without one: 10% around the base. */
const defaultDeviationBps = 1000;

interface SandboxOptions {
  services: Services;
  log: Log;
  state: SandboxState;
  priceControls: boolean;
}

/**
 * Unencapsulated (fastify-plugin) for its hook, which reaches every route of the app: the store's
 * latest state, and the faults of /v3 and /v4. The controls are a child context of their own, so
 * that their guard applies to them alone. After the access plugin: the controls are rate limited.
 */
export const sandboxPlugin = fp<SandboxOptions>(
  async (app, options) => {
    const { state } = options;
    const { server, sandboxOperatorKey } = options.services.config;
    if (!isLoopbackHost(server.host))
      options.log.warn(
        `the sandbox controls are on and the server listens on ${server.host}, beyond this machine: ${
          sandboxOperatorKey
            ? 'a caller with the operator key can settle any order, move the clock and make requests fail'
            : 'they answer only callers on this machine'
        }; a deployment sets "sandbox": false`,
      );
    app.addHook('preHandler', async (request) => {
      if (!/^\/(v[34]|sandbox)\//.test(request.url)) return;
      await state.refresh();
      // Faults on request, so that integrators (and the contract suite) see how the API answers one;
      // taken one by one in the store, so that N faults fail N requests whichever process gets them.
      if (state.current.faults > 0 && request.url[1] === 'v' && (await takeFault(state))) {
        throw new Error('sandbox: injected fault with internals that must not leak (10.0.0.7:5432)');
      }
    });
    await app.register(sandboxControls, options);
  },
  { name: 'gateway-sandbox', fastify: '5.x', dependencies: ['gateway-access'] },
);

async function sandboxControls(app: FastifyInstance, { services, state, priceControls }: SandboxOptions): Promise<void> {
  const { lifecycle, view, clock, orders, bitcoin, catalogue } = services;
  const render = (order: Parameters<typeof view.render>[0]) => view.render(order, clock.now());

  // Before the rate limit's own onRequest hook (a route's): a caller refused here is not counted.
  app.addHook('onRequest', operatorOnly(services.config));
  app.post('/sandbox/faults', async (request: FastifyRequest<{ Body: unknown }>) => {
    const count = objectBody(request.body).count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 1000)
      throw invalidRequest('count must be a whole number from 0 to 1000', { message: 'count' });
    const { faults } = await state.update((values) => ({ ...values, faults: count }));
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
    await state.update((values) => ({ ...values, clockOffsetMs: values.clockOffsetMs + seconds * 1000 }));
    await lifecycle.catchUp();
    return { now: new Date(clock.now()).toISOString() };
  });

  // The market: every priced token's USD price, which quotes and order USD values use.
  const priceList = () => {
    const { prices, pricesRevision, walk } = state.current;
    return {
      revision: pricesRevision,
      walk,
      prices: services.config.tokens
        .filter((token) => prices[priceKey(token.chain, token.address)])
        .map((token) => ({
          chain: token.chain,
          token: token.address,
          symbol: token.symbol,
          priceUsd: prices[priceKey(token.chain, token.address)]!.usd,
        })),
    };
  };
  if (priceControls) {
    app.get('/sandbox/prices', async () => priceList());
    app.post('/sandbox/prices', async (request: FastifyRequest<{ Body: unknown }>) => {
      const body = objectBody(request.body);
      const chain = optionalString(body, 'chain') ?? '';
      const address = optionalString(body, 'token') ?? '';
      const token = catalogue.token(chain, address);
      const key = token && priceKey(token.chain, token.address);
      if (!token || !key || !state.current.prices[key])
        throw invalidRequest('chain and token must name a priced token of GET /sandbox/prices', {
          expected: 'a priced token',
          actual: `${chain}:${address}`,
        });
      const price = body.priceUsd;
      if (typeof price !== 'string' || !/^\d{1,12}(\.\d{1,8})?$/.test(price) || !/[1-9]/.test(price))
        throw invalidRequest('priceUsd must be a positive decimal string with at most 8 decimals, e.g. "97250.5"', {
          expected: 'a positive decimal string',
          actual: String(price),
        });
      await state.update((values) => withPrice(values, key, price));
      return priceList();
    });
    app.post('/sandbox/prices/walk', async (request: FastifyRequest<{ Body: unknown }>) => {
      const body = objectBody(request.body);
      const walk = { maxDeviationBps: defaultDeviationBps, ...body } as PriceWalk;
      const problems = priceWalkProblems(walk);
      if (problems.length) throw invalidRequest(problems.join('; '), { message: problems.join('; ') });
      const { intervalSeconds, maxStepBps, maxDeviationBps } = walk;
      await state.update((values) => withWalk(values, { intervalSeconds, maxStepBps, maxDeviationBps }));
      return priceList();
    });
    app.delete('/sandbox/prices/walk', async () => {
      await state.update((values) => withWalk(values, null));
      return priceList();
    });
  }

  // A wallet that builds its own payment needs its outputs and their funding transactions, as an
  // indexer would give them; the simulated chain then knows them when register-tx looks them up.
  app.get('/sandbox/bitcoin/utxos/:address', async (request: FastifyRequest<{ Params: { address: string } }>) => {
    const { address } = request.params;
    if (!isValidAddress('bitcoin', address, bitcoin.network))
      throw invalidRequest(`${address} is not a Bitcoin address of this network`, { expected: 'a Bitcoin address', actual: address });
    const utxos = await bitcoin.utxos(address);
    return { utxos: utxos.map(({ txid, vout, value, transactionHex }) => ({ txid, vout, value: value.toString(), transactionHex })) };
  });

  app.get('/sandbox/liquidity', async () => ({ liquidity: await orders.liquidity() }));
}

/** The guard of the controls (see the module's comment). */
function operatorOnly(config: GatewayConfig) {
  const digest = (key: string) => createHash('sha256').update(key).digest();
  const operatorKey = config.sandboxOperatorKey === undefined ? undefined : digest(config.sandboxOperatorKey);
  return async (request: FastifyRequest) => {
    const { origin } = request.headers;
    // A browser names the page's origin on every cross-origin request, also on a POST it sends
    // without asking first (no body, or a form's): without this, any page the developer opens could
    // reach the controls through their own loopback connection.
    if (origin !== undefined && !(config.cors && isAllowedOrigin(origin, config.cors)))
      throw forbidden(`the sandbox controls refuse pages of ${origin}`, {
        expected: 'an origin the CORS configuration allows',
        actual: origin,
      });
    if (operatorKey) {
      const presented = request.headers['x-sandbox-key'];
      // Hashed first, so that the comparison takes the same time whatever the presented key's length.
      if (typeof presented !== 'string' || !timingSafeEqual(digest(presented), operatorKey))
        throw unauthorized('the sandbox controls need the operator key in X-Sandbox-Key', { message: 'X-Sandbox-Key' });
      return;
    }
    if (!fromThisMachine(request))
      throw forbidden('the sandbox controls answer only callers on this machine, or with the operator key (sandboxOperatorKey)', {
        message: 'sandboxOperatorKey',
      });
  };
}

/** Headers a proxy adds: a request that carries one came from elsewhere, whatever connection brought it. */
const forwardedHeaders = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

function fromThisMachine(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  const loopback = /^(::ffff:)?127\./.test(address) || address === '::1';
  return loopback && !forwardedHeaders.some((name) => name in request.headers);
}

const isLoopbackHost = (host: string) => host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '[::1]';

/** Takes one of the faults still to inject; false when another request (of any process) took the last. */
async function takeFault(state: SandboxState): Promise<boolean> {
  let taken = false;
  await state.update((values) => {
    taken = values.faults > 0;
    return taken ? { ...values, faults: values.faults - 1 } : undefined;
  });
  return taken;
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
