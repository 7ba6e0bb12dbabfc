/**
 * The server's configuration: a JSON file (the built-in sandbox file by default) with a few values
 * overridable from the environment. Everything the quote engine, the order book and the adapters
 * need is here, so that a deployment changes chains, fees or limits without touching code.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayRoute } from '@swap-gateway/types';
import { tokenKey } from './catalogue.js';

export type ChainKind = 'bitcoin' | 'evm' | 'tron' | 'solana';
/** A route is the document's route key (`GatewayRoute`: onramp, offramp, tokenSwap). */
export type RouteKind = GatewayRoute;

export interface ChainConfig {
  id: string;
  kind: ChainKind;
  /** A disabled chain stays known (DISABLED_CHAIN) but has no routes. Default true. */
  enabled?: boolean;
  /** Numeric chain id (EVM chain id, Solana's 101). */
  chainId?: number;
  /** Tron only: the fee limit, in sun, put in every transaction. */
  feeLimitSun?: string;
}

export interface TokenConfig {
  chain: string;
  address: string;
  symbol: string;
  decimals: number;
  /** USD price of one whole token. Without it the token has no USD values. */
  priceUsd?: string;
}

export interface RouteConfig {
  srcChain: string;
  srcToken: string;
  dstChain: string;
  dstToken: string;
  /** Slippage reported when a quote request gives none. */
  defaultSlippageBps: number;
  /** Smallest input, in the source token's smallest unit (INSUFFICIENT_AMOUNT below it). */
  minAmount: string;
  /** Largest input (EXCEEDED_LIMIT above it). */
  maxAmount?: string;
  /** Most input one account (sender or refund address) may have in orders of the last 24 hours (PER_ACCOUNT_LIMIT_EXCEEDED). */
  perAccountLimit?: string;
  /** Most input all open orders of the route may hold together (GLOBAL_LIMIT_EXCEEDED). */
  globalLimit?: string;
  /** Smallest output after fees (QUOTE_AMOUNT_TOO_LOW below it). */
  minOutputAmount?: string;
  solverFeeBps: number;
  protocolFeeBps: number;
  /** Onramp: cost of the destination-chain execution, in destination units. */
  executionFee?: string;
  /** Onramp: cross-chain messaging fee, in destination units. */
  messagingFee?: string;
  /** Whether the route takes affiliate fees (AFFILIATE_FEES_NOT_SUPPORTED_FOR_ROUTE otherwise). */
  affiliateFees: boolean;
  /** Contract or program the source-chain transaction is sent to. */
  txTo: string;
  estimatedTimeInSecs: number;
  /** Whole destination tokens per whole source token; only needed when a token has no price. */
  rate?: string;
}

export interface PriceWalk {
  /** Seconds between two steps. */
  intervalSeconds: number;
  /** Largest step of one price, in basis points of it. */
  maxStepBps: number;
  /** How far a price may wander from its base (configured or last set), in basis points of the base. */
  maxDeviationBps: number;
}

export interface GatewayConfig {
  server: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    /**
     * Which proxies in front may name the client (X-Forwarded-For), as Fastify's `trustProxy`:
     * false (default: the client is the connection's address), or the proxies' addresses and CIDR
     * ranges (proxy-addr's names too: "loopback", "uniquelocal" for 10/8, 172.16/12, 192.168/16 and
     * fc00::/7). The client's address is what the anonymous rate limit counts by. No hop count:
     * Fastify 5.12 trusts no proxy for one, since a client reaching the server directly would name
     * its own address.
     */
    trustProxy: false | string[];
    /** Milliseconds a client has to send the request line and headers; also how long a connection that sends nothing stays open. */
    headersTimeoutMs: number;
    /** Milliseconds a client has to send the whole request, body included; then 408. */
    requestTimeoutMs: number;
    /** Milliseconds an idle keep-alive connection stays open between requests (Node adds a second). */
    keepAliveTimeoutMs: number;
    /** Connections one process holds at once; one more is closed at once. Keep it below the open-file limit (`ulimit -n`) less about 100. */
    maxConnections: number;
  };
  /** `dataDir` of the embedded database (":memory:" for none), or `databaseUrl` of a PostgreSQL server. */
  storage: { dataDir?: string; databaseUrl?: string };
  /** Registers the sandbox control endpoints (/sandbox/...). Off in a real deployment. */
  sandbox: boolean;
  /**
   * With the sandbox on: the key the controls require in `X-Sandbox-Key` (at least 32 characters).
   * Without it the controls answer only requests from this machine (loopback, not forwarded).
   */
  sandboxOperatorKey?: string;
  /** With the sandbox: prices move by themselves, by a random walk (POST /sandbox/prices/walk changes it while it runs). Absent: they stay until set. */
  priceWalk?: PriceWalk;
  /** Seals quotes and page cursors. Omitted, one is generated at the first start and kept in the store. */
  signingSecret?: string;
  quoteTtlSeconds: number;
  /**
   * How many JSON responses are checked against the document before they are sent: one in `every`
   * of each operation and status. 1 (the default, and the sandbox's) checks every one; a
   * deployment may sample (e.g. 100) to keep the check's cost off its hot path.
   */
  checkResponses: { every: number };
  /**
   * `maxUnpaidPerClient`: how many orders without a source transaction one client may hold open
   * (each reserves liquidity until it is paid or expires): per API key with one, per IP address
   * without. Beyond it create-order answers 400 EXCEEDED_LIMIT, naming when the oldest one expires.
   */
  orders: { defaultPageSize: number; maxPageSize: number; maxUnpaidPerClient: { anonymous: number; apiKey: number } };
  /**
   * Requests per window and client: by IP address without a key, by key with one. Counted in the
   * process's memory, or, with `redisUrl` (redis://host:port, or a Unix socket path), in Redis, so
   * that several instances count together.
   */
  rateLimits: {
    windowSeconds: number;
    anonymous: number;
    apiKey: number;
    /**
     * Lookups per IP address and window of keys this process has not verified in the last minute
     * (a verified key is then remembered): bad keys cost at most this many queries per address.
     */
    keyLookups: number;
    redisUrl?: string;
  };
  /**
   * Which web pages may call the gateway from a browser (CORS). Absent: none.
   * `origins`: exact origins (where the docs site is published, e.g. "https://docs.example.com");
   * `localhost`: any http(s) origin on localhost, 127.0.0.1 or [::1], whatever the port;
   * `fileOrigin`: pages opened from disk, which browsers send as `Origin: null`.
   */
  cors?: { origins: string[]; localhost: boolean; fileOrigin: boolean };
  /** Addresses refused by screening (NON_COMPLIANT_ADDRESSES). */
  denyList: string[];
  slippage: { minBps: number; maxBps: number };
  affiliates: { maxBps: number };
  lifecycle: {
    /** Seconds between a source transaction being seen and it counting as confirmed. */
    confirmationDelaySeconds: number;
    /** Seconds an offramp payout stays pending before it confirms. */
    payoutDelaySeconds: number;
    /**
     * Seconds an order waits for its source transaction (the onramp payment, the offramp or
     * token-swap transaction); then it fails with reason `expired` and its liquidity is released.
     */
    unpaidOrderExpirySeconds: number;
    /** How often the chain adapters are polled. 0 turns the background loop off (tests advance by hand). */
    tickMs: number;
    /**
     * An instance claims a payout, delivery or refund before it sends it and renews the claim while it
     * works; a claim not renewed for this long (its instance died) is taken over by another. Default 10.
     */
    effectLeaseSeconds: number;
    /** How long the simulated chains take to send a transfer, in ms (a real chain's call takes seconds). Default 0. */
    simulatedSendMs: number;
  };
  bitcoin: {
    network: 'bitcoin' | 'testnet' | 'regtest';
    /** Extended public key the per-order deposit addresses are derived from. */
    depositXpub: string;
    /** Fee rate in sat/vB used for PSBTs and payouts. */
    feeRate: number;
    /** Size of a payout transaction, for the inclusion fee. */
    payoutVbytes: number;
    /** Confirmed balance the simulated chain gives every address. */
    simulatedBalanceSats: string;
  };
  chains: ChainConfig[];
  tokens: TokenConfig[];
  routes: RouteConfig[];
  /** Market-maker inventory per destination token, in its smallest unit. */
  liquidity: Array<{ chain: string; token: string; amount: string }>;
}

export const sandboxConfigFile = fileURLToPath(new URL('../../config/sandbox.json', import.meta.url));

/** The shape of a configuration, merged: the settings there are, their types, the ones required. */
const configSchemaFile = fileURLToPath(new URL('../../config/gateway-config.schema.json', import.meta.url));

/** A partial configuration merged over the file, section by section. */
export type ConfigOverrides = {
  [K in keyof GatewayConfig]?: GatewayConfig[K] extends unknown[] ? GatewayConfig[K] : Partial<GatewayConfig[K]> | GatewayConfig[K];
};

/** Values a configuration file may leave out (merged section by section under the file's). */
const defaults: ConfigOverrides = {
  checkResponses: { every: 1 },
  lifecycle: { effectLeaseSeconds: 10, simulatedSendMs: 0 },
  orders: { maxUnpaidPerClient: { anonymous: 5, apiKey: 50 } },
  server: {
    trustProxy: false,
    // Node's defaults (60 s for the headers, looked at every 30 s) and Fastify's (no limit for the
    // whole request, 72 s for an idle keep-alive connection) let a body sent a byte every 5 s hold
    // its socket indefinitely and idle sockets live 60 to 90 s (issue 24).
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    // Below the common open-file limit of 1,024 with room for the store's connections and files.
    maxConnections: 900,
  },
  rateLimits: { keyLookups: 300 },
};

const corsDefaults: NonNullable<GatewayConfig['cors']> = { origins: [], localhost: false, fileOrigin: false };

export function loadConfig(options: { configFile?: string; overrides?: ConfigOverrides; env?: NodeJS.ProcessEnv } = {}): GatewayConfig {
  const env = options.env ?? process.env;
  const file = options.configFile ?? env.GATEWAY_CONFIG ?? sandboxConfigFile;
  let config: GatewayConfig;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as GatewayConfig;
  } catch (error) {
    throw new ConfigError(`cannot read the configuration file ${file}: ${(error as Error).message}`);
  }
  config = merge(defaults as GatewayConfig, config);
  config = merge(config, fromEnvironment(env));
  if (options.overrides) config = merge(config, options.overrides);
  // The environment may name only some of the CORS settings of a file without a `cors` section.
  if (config.cors) config.cors = { ...corsDefaults, ...config.cors };
  checkShape(config);
  checkConfig(config);
  return config;
}

function fromEnvironment(env: NodeJS.ProcessEnv): ConfigOverrides {
  const overrides: ConfigOverrides = {};
  const server: Partial<GatewayConfig['server']> = {};
  if (env.GATEWAY_HOST) server.host = env.GATEWAY_HOST;
  if (env.GATEWAY_PORT) server.port = integer('GATEWAY_PORT', env.GATEWAY_PORT);
  if (env.GATEWAY_TRUST_PROXY) server.trustProxy = trustProxy(env.GATEWAY_TRUST_PROXY);
  if (Object.keys(server).length) overrides.server = server;
  const storage: GatewayConfig['storage'] = {};
  if (env.GATEWAY_DATA_DIR) storage.dataDir = env.GATEWAY_DATA_DIR;
  if (env.DATABASE_URL) storage.databaseUrl = env.DATABASE_URL;
  if (Object.keys(storage).length) overrides.storage = storage;
  if (env.GATEWAY_SIGNING_SECRET) overrides.signingSecret = env.GATEWAY_SIGNING_SECRET;
  if (env.GATEWAY_SANDBOX_OPERATOR_KEY) overrides.sandboxOperatorKey = env.GATEWAY_SANDBOX_OPERATOR_KEY;
  if (env.GATEWAY_DENY_LIST !== undefined)
    overrides.denyList = env.GATEWAY_DENY_LIST.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  const rateLimits: Partial<GatewayConfig['rateLimits']> = {};
  if (env.GATEWAY_RATE_LIMIT_ANONYMOUS) rateLimits.anonymous = integer('GATEWAY_RATE_LIMIT_ANONYMOUS', env.GATEWAY_RATE_LIMIT_ANONYMOUS);
  if (env.GATEWAY_RATE_LIMIT_API_KEY) rateLimits.apiKey = integer('GATEWAY_RATE_LIMIT_API_KEY', env.GATEWAY_RATE_LIMIT_API_KEY);
  if (env.GATEWAY_REDIS_URL) rateLimits.redisUrl = env.GATEWAY_REDIS_URL;
  if (Object.keys(rateLimits).length) overrides.rateLimits = rateLimits;
  const cors: Partial<NonNullable<GatewayConfig['cors']>> = {};
  if (env.GATEWAY_CORS_ORIGINS !== undefined)
    cors.origins = env.GATEWAY_CORS_ORIGINS.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  if (env.GATEWAY_CORS_FILE_ORIGIN) cors.fileOrigin = env.GATEWAY_CORS_FILE_ORIGIN === '1';
  if (Object.keys(cors).length) overrides.cors = cors;
  return overrides;
}

/** GATEWAY_TRUST_PROXY: comma-separated addresses and CIDR ranges, or "false". */
function trustProxy(value: string): GatewayConfig['server']['trustProxy'] {
  if (value === 'false') return false;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function integer(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

function merge(base: GatewayConfig, overrides: ConfigOverrides): GatewayConfig {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const current = merged[key];
    merged[key] = isPlainObject(value) && isPlainObject(current) ? { ...current, ...value } : value;
  }
  return merged as unknown as GatewayConfig;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class ConfigError extends Error {}

/** The settings' JSON schema, compiled at the first load. */
let validateShape: ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Settings misspelt, missing or of the wrong type, each said as a line of its own (a file that leaves
 * out a section the built-in one has, say `chains`, would otherwise fail later with a TypeError).
 */
function checkShape(config: GatewayConfig): void {
  validateShape ??= new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(configSchemaFile, 'utf8')));
  if (validateShape(config)) return;
  const problems = (validateShape.errors ?? []).map((error) => {
    const at = error.instancePath
      .split('/')
      .slice(1)
      .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
      .join('')
      .slice(1);
    const within = at ? `${at}.` : '';
    if (error.keyword === 'required') return `${within}${error.params.missingProperty} is missing`;
    if (error.keyword === 'additionalProperties') return `${within}${error.params.additionalProperty} is not a setting`;
    return `${at || 'the configuration'} ${error.message}`;
  });
  throw new ConfigError(
    `invalid configuration (its settings: ${configSchemaFile}; a file is whole, start from a copy of ${sandboxConfigFile}):\n- ${problems.join('\n- ')}`,
  );
}

/**
 * Values the schema cannot judge: what contradicts itself or the catalogue, mistakes that would
 * otherwise surface as a wrong quote (unknown chains, tokens without a rate) or a failed start.
 */
function checkConfig(config: GatewayConfig): void {
  const problems: string[] = [];
  if (config.signingSecret !== undefined && config.signingSecret.length < 16) problems.push('signingSecret must be at least 16 characters');
  const chains = new Map(config.chains.map((chain) => [chain.id, chain]));
  // As the catalogue will find them: a token, route or liquidity entry that passes here is served.
  const key = (chain: string, address: string) => tokenKey(chain, chains.get(chain)?.kind, address);
  const tokens = new Map(config.tokens.map((token) => [key(token.chain, token.address), token]));
  for (const token of config.tokens)
    if (!chains.has(token.chain)) problems.push(`token ${token.symbol} is on unknown chain ${token.chain}`);
  for (const route of config.routes) {
    const name = `route ${route.srcChain}:${route.srcToken} -> ${route.dstChain}:${route.dstToken}`;
    const src = tokens.get(key(route.srcChain, route.srcToken));
    const dst = tokens.get(key(route.dstChain, route.dstToken));
    if (!src || !dst) problems.push(`${name} names a token that is not configured`);
    else if (!route.rate && (!src.priceUsd || !dst.priceUsd)) problems.push(`${name} needs a rate: a token has no price`);
    if (route.srcChain === route.dstChain) problems.push(`${name} stays on one chain`);
    if (chains.get(route.srcChain)?.kind === 'bitcoin' && chains.get(route.dstChain)?.kind === 'bitcoin')
      problems.push(`${name} is Bitcoin to Bitcoin`);
  }
  for (const route of config.routes) {
    if (chains.get(route.dstChain)?.kind === 'bitcoin' && !tokens.get(key(route.dstChain, route.dstToken))?.priceUsd)
      problems.push(`offramp route from ${route.srcChain} needs a Bitcoin price for totalFeeUsd`);
  }
  if (config.rateLimits.anonymous >= config.rateLimits.apiKey) problems.push('rateLimits.anonymous must be below rateLimits.apiKey');
  if (!isWhole(config.rateLimits.keyLookups, 1)) problems.push('rateLimits.keyLookups must be a whole number from 1');
  problems.push(...serverProblems(config.server));
  if (config.sandboxOperatorKey !== undefined && config.sandboxOperatorKey.length < 32)
    problems.push('sandboxOperatorKey must be at least 32 characters');
  for (const entry of config.liquidity)
    if (!tokens.has(key(entry.chain, entry.token))) problems.push(`liquidity for unknown token ${entry.chain}:${entry.token}`);
  const unpaid = config.orders.maxUnpaidPerClient;
  if (!(Number.isInteger(unpaid.anonymous) && unpaid.anonymous >= 1 && Number.isInteger(unpaid.apiKey) && unpaid.apiKey >= 1))
    problems.push('orders.maxUnpaidPerClient.anonymous and .apiKey must be whole numbers from 1');
  if (config.orders.maxPageSize < 1 || config.orders.defaultPageSize > config.orders.maxPageSize)
    problems.push('orders.defaultPageSize must be between 1 and orders.maxPageSize');
  if (config.slippage.minBps > config.slippage.maxBps) problems.push('slippage.minBps is above slippage.maxBps');
  if (!Number.isInteger(config.checkResponses.every) || config.checkResponses.every < 1)
    problems.push('checkResponses.every must be a whole number from 1');
  if (!(config.lifecycle.unpaidOrderExpirySeconds > 0))
    problems.push('lifecycle.unpaidOrderExpirySeconds must be a positive number of seconds');
  if (!(config.lifecycle.effectLeaseSeconds >= 1)) problems.push('lifecycle.effectLeaseSeconds must be at least 1 second');
  if (config.priceWalk) problems.push(...priceWalkProblems(config.priceWalk).map((problem) => `priceWalk.${problem}`));
  if (problems.length) throw new ConfigError(`invalid configuration:\n- ${problems.join('\n- ')}`);
}

/** An address, a CIDR range, or one of proxy-addr's names of ranges (what Fastify's trustProxy compiles). */
const isProxyAddress = (entry: unknown) =>
  typeof entry === 'string' &&
  (['loopback', 'linklocal', 'uniquelocal'].includes(entry) || (/^[^/]+(\/\d{1,3})?$/.test(entry) && isIP(entry.split('/')[0]!) !== 0));

const isWhole = (value: unknown, from: number) => Number.isInteger(value) && (value as number) >= from;

function serverProblems(server: GatewayConfig['server']): string[] {
  const problems: string[] = [];
  const { trustProxy } = server;
  // `true` or a hop count would take X-Forwarded-For from a client that reaches the server directly:
  // it would pick its own address, and so its own rate-limit budget.
  if (!(trustProxy === false || (Array.isArray(trustProxy) && trustProxy.length > 0 && trustProxy.every(isProxyAddress))))
    problems.push('server.trustProxy must be false or a list of the proxies\' addresses or CIDR ranges, e.g. ["10.0.0.0/8"]');
  for (const name of ['headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs', 'maxConnections'] as const)
    if (!isWhole(server[name], 1)) problems.push(`server.${name} must be a whole number from 1`);
  // Node refuses a headers timeout longer than the request's.
  if (server.headersTimeoutMs > server.requestTimeoutMs) problems.push('server.headersTimeoutMs must not be above server.requestTimeoutMs');
  return problems;
}

/** What is wrong with a price walk, as `field must ...` sentences (also the sandbox control's check). */
export function priceWalkProblems(walk: PriceWalk): string[] {
  const problems: string[] = [];
  const { intervalSeconds, maxStepBps, maxDeviationBps } = walk;
  if (typeof intervalSeconds !== 'number' || !(intervalSeconds >= 0.1 && intervalSeconds <= 86_400))
    problems.push('intervalSeconds must be a number of seconds from 0.1 to 86400');
  if (!Number.isInteger(maxStepBps) || maxStepBps < 0 || maxStepBps > 1000)
    problems.push('maxStepBps must be a whole number from 0 to 1000');
  if (!Number.isInteger(maxDeviationBps) || maxDeviationBps < 0 || maxDeviationBps > 5000)
    problems.push('maxDeviationBps must be a whole number from 0 to 5000');
  return problems;
}

/** The store as `openStore` opens it: PostgreSQL's URL, or the embedded database's directory made absolute (none in memory). */
export function storeLocation({ dataDir, databaseUrl }: GatewayConfig['storage']): { dataDir?: string; databaseUrl?: string } {
  return { databaseUrl, dataDir: dataDir && dataDir !== ':memory:' ? resolve(dataDir) : undefined };
}
