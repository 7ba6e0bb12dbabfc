/** The configuration and the get-quote request the bench's servers are measured on. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxConfigFile, type GatewayConfig } from '../src/config/config.js';

/** One response in this many is checked against the document on the servers compared with the others. */
export const checkEvery = 100;

/** The quote every get-quote row asks for: 0.01 BTC onramp to wrapped BTC on BOB, with an affiliate. */
export const quoteQuery = new URLSearchParams({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  refundAddress: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
  affiliates: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045:25',
});

export interface BenchConfigOptions {
  checkResponses?: { every: number };
  /** Prices moving as the walk says. */
  priceWalk?: GatewayConfig['priceWalk'];
  /** The sandbox off, as in a deployment. */
  deployment?: boolean;
}

/**
 * Writes into `dir` the sandbox configuration, its rate limit out of the way, its liquidity enough
 * for every create-order and flow row, orders settling within seconds of their source transaction
 * (the flow rows wait for them), and responses checked one in `checkResponses`; with `priceWalk`,
 * prices move; with `deployment`, the sandbox is off, as in a deployment (no control endpoints, and
 * on PostgreSQL no read of the sandbox's state before each request: bench/README.md). Returns its path.
 */
export function writeBenchConfig(
  dir: string,
  { checkResponses = { every: checkEvery }, priceWalk, deployment = false }: BenchConfigOptions = {},
): string {
  const config = JSON.parse(readFileSync(sandboxConfigFile, 'utf8')) as GatewayConfig;
  config.rateLimits = { windowSeconds: 60, anonymous: 1_000_000_000, apiKey: 2_000_000_000, keyLookups: 1_000_000_000 };
  // The bench's load is one client opening orders by the thousand, far past any per-client cap.
  config.orders = { ...config.orders, maxUnpaidPerClient: { anonymous: 1_000_000_000, apiKey: 1_000_000_000 } };
  config.liquidity = config.liquidity.map((entry) => ({ ...entry, amount: '1000000000000000000000' }));
  config.lifecycle = { ...config.lifecycle, confirmationDelaySeconds: 2, payoutDelaySeconds: 2 };
  config.checkResponses = checkResponses;
  if (priceWalk) config.priceWalk = priceWalk;
  if (deployment) config.sandbox = false;
  const file = join(dir, `config-${checkResponses.every}${priceWalk ? '-walk' : ''}${deployment ? '-deployment' : ''}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}
