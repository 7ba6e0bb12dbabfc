/**
 * Starting and stopping a gateway: configuration, store (with its migrations and the configured
 * liquidity), services, the application, the lifecycle loop. Closing lets in-flight requests finish,
 * stops the loop and closes the store.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { bundledDocument } from './http/document.js';
import { DepositAddresses, SimulatedBitcoin, type BitcoinAdapter } from './chains/bitcoin.js';
import { SimulatedChains, type SettlementAdapter } from './chains/settlement.js';
import { Clock } from './clock.js';
import { Catalogue } from './config/catalogue.js';
import { loadConfig, storeLocation, type ConfigOverrides, type GatewayConfig } from './config/config.js';
import { ApiKeys } from './keys/keys.js';
import { CursorCodec } from './orders/cursor.js';
import { createLog, type Log, type LogOptions } from './log.js';
import { Lifecycle } from './orders/lifecycle.js';
import { OrderEvents } from './orders/events.js';
import { orderReads, type OrderReads } from './orders/reads.js';
import { OrderService } from './orders/service.js';
import { seedLiquidity } from './orders/queries.js';
import { OrderView } from './orders/view.js';
import { ConfiguredPrices, type PriceSource } from './quote/prices.js';
import { QuoteSeal } from './quote/seal.js';
import { sealedFields } from './quote/sealed-fields.js';
import { QuoteMemo } from './quote/memo.js';
import { QuoteService } from './quote/service.js';
import { VolumeCache } from './volumes/cache.js';
import { reconcileWithConfig, SandboxPrices, startPriceWalk } from './sandbox/prices.js';
import { SandboxState } from './sandbox/state.js';
import type { Services } from './services.js';
import { signingSecret } from './store/secret.js';
import type { Database } from './store/database.js';
import { openStore, type Store } from './store/open-store.js';

export interface StartServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Directory of the embedded database; ":memory:" keeps it in memory. */
  dataDir?: string;
  /** PostgreSQL instead of the embedded database. */
  databaseUrl?: string;
  /** Configuration file (default: GATEWAY_CONFIG, then the built-in sandbox configuration). */
  configFile?: string;
  /** Values merged over the file, section by section. */
  config?: ConfigOverrides;
  /** The log's level and stream (src/log.ts; default: off). */
  logger?: LogOptions;
  /** Adapters replacing the simulated ones. */
  adapters?: { bitcoin?: BitcoinAdapter; settlement?: SettlementAdapter; prices?: PriceSource };
  env?: NodeJS.ProcessEnv;
  /**
   * A migrated database opened already, used instead of the configured store and left open on close:
   * tests share one among several servers, as instances share a PostgreSQL (an embedded start costs
   * about 2 s of CPU).
   */
  database?: Database;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  log: Log;
  services: Services;
  close(): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const overrides: ConfigOverrides = { ...options.config };
  if (options.host !== undefined || options.port !== undefined)
    overrides.server = {
      ...overrides.server,
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
    };
  if (options.dataDir !== undefined || options.databaseUrl !== undefined)
    overrides.storage = {
      ...overrides.storage,
      ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
      ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
    };
  const config = loadConfig({ configFile: options.configFile, overrides, env: options.env });
  const gateway = await createGateway(config, options);
  try {
    await gateway.app.listen({ host: config.server.host, port: config.server.port });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  const address = gateway.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  return { ...gateway, url: `http://${host}:${port}` };
}

/**
 * Quotes the memo keeps (quote/memo.ts), a few KB each.
 * Measured (bench/results/2026-11-26T02-13-01-852Z.json): a quote from the memo 98 µs of CPU, one computed (a new amount) 162 µs.
 */
const quoteMemoCapacity = 10_000;

export async function createGateway(config: GatewayConfig, options: Pick<StartServerOptions, 'logger' | 'adapters' | 'database'> = {}) {
  const log = createLog(options.logger);
  const store: Store = options.database
    ? { db: options.database, close: async () => {} }
    : await openStore({ ...storeLocation(config.storage), log: (message, error) => log.warn({ err: error }, message) });
  /** Closed before the store: on PostgreSQL it keeps a listening connection open again when one is lost. */
  let storeReads: OrderReads | undefined;
  try {
    const catalogue = new Catalogue(config);
    await seedLiquidity(
      store.db,
      config.liquidity.map((entry) => ({ ...entry, token: catalogue.token(entry.chain, entry.token)!.address })),
    );
    // The sandbox's clock, faults and prices live in the store, shared by every process (sandbox/state.ts).
    const sandbox = config.sandbox ? await SandboxState.open(store.db, (values) => reconcileWithConfig(values, config)) : undefined;
    const clock = sandbox ? new Clock(() => sandbox.current.clockOffsetMs) : new Clock();
    const sandboxPrices = sandbox && !options.adapters?.prices ? new SandboxPrices(sandbox) : undefined;
    const prices = options.adapters?.prices ?? sandboxPrices ?? new ConfiguredPrices();
    const bitcoin = options.adapters?.bitcoin ?? new SimulatedBitcoin(config.bitcoin, store.db);
    const secret = await signingSecret(store.db, config.signingSecret);
    const seal = new QuoteSeal(secret, sealedFields(bundledDocument().document));
    const view = new OrderView(catalogue, prices);
    // get-quote reads a route's volume sums at most once a second; every order written here drops them.
    // Measured (bench/README.md): get-quote on a limited route 741-936 → 170-205 µs of CPU.
    const volumes = new VolumeCache(1000);
    const reads = await orderReads(store.db);
    storeReads = reads;
    const events = new OrderEvents(reads.keepsWritten);
    events.subscribe((orderId, written) => reads.changed(orderId, written));
    events.subscribe(() => volumes.changed());
    const quoteEngine = { config, catalogue, prices, bitcoinNetwork: bitcoin.network, bitcoinFeeRate: bitcoin.feeRate() };
    const quotes = new QuoteService(store.db, quoteEngine, seal, clock, volumes, new QuoteMemo(quoteMemoCapacity, () => prices.revision()));
    const orders = new OrderService({
      db: store.db,
      config,
      catalogue,
      seal,
      quoteEngine,
      cursors: new CursorCodec(secret),
      clock,
      bitcoin,
      depositAddresses: new DepositAddresses(config.bitcoin.depositXpub, bitcoin.network),
      view,
      reads,
      events,
      nextLookMs: (order, now) => lifecycle.nextLookMs(order, now),
    });
    const settlement =
      options.adapters?.settlement ??
      new SimulatedChains({ ...config.lifecycle, sendDelayMs: config.lifecycle.simulatedSendMs }, store.db.background);
    const lifecycle = new Lifecycle(
      store.db,
      catalogue,
      settlement,
      view,
      clock,
      events,
      reads,
      { effectLeaseSeconds: config.lifecycle.effectLeaseSeconds },
      () => sandbox?.refresh() ?? Promise.resolve(),
      // Logged, and tried again on a later pass: an outage of the database or of a chain passes.
      (error) => log.warn({ err: error }, 'the lifecycle could not move an order on; it tries again'),
    );
    const services: Services = {
      config,
      catalogue,
      db: store.db,
      clock,
      bitcoin,
      quotes,
      orders,
      lifecycle,
      view,
      sandbox: sandbox && { state: sandbox, priceControls: sandboxPrices !== undefined },
    };
    const app = await buildApp(services, { log, keys: new ApiKeys(store.db) });
    lifecycle.start(config.lifecycle.tickMs);
    const stopPriceWalk = sandboxPrices
      ? startPriceWalk(sandbox!, (error) => log.warn({ err: error }, 'the price walk could not step'))
      : () => {};
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        stopPriceWalk();
        await app.close();
        await lifecycle.stop();
        await reads.close();
        await store.close();
      })());
    return { app, log, services, close };
  } catch (error) {
    await storeReads?.close();
    await store.close();
    throw error;
  }
}
