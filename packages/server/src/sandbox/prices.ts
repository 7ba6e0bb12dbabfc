/**
 * The sandbox's market: the configured USD prices, which a control can set and a random walk can
 * move, kept in the sandbox's state (sandbox/state.ts) so that every process quotes the same price.
 * Real gateways quote a moving market; here an integrator can watch a quote be refused because the
 * price moved, and every cache on the quote path has to stay right while prices move.
 */
import { randomInt } from 'node:crypto';
import type { GatewayConfig, PriceWalk, TokenConfig } from '../config/config.js';
import { formatScaled, parseDecimal } from '../quote/amounts.js';
import type { PriceSource } from '../quote/prices.js';
import type { SandboxPrice, SandboxState, SandboxValues as Values } from './state.js';

/** A price's key in the sandbox's state: the token's chain and its configured address, lower-cased (config/catalogue.ts tokenKey keeps Base58 exact; the catalogue has already told the tokens apart). */
export const priceKey = (chain: string, address: string) => `${chain}:${address.toLowerCase()}`;

/** Decimals a walked or set price keeps. */
const priceDecimals = 8;

export class SandboxPrices implements PriceSource {
  /**
   * Prices parsed at the revision they were read at, by the catalogue's token object (no key string
   * to build): a quote asks for the same few prices a dozen times.
   * Measured (bench/README.md): a new-amount get-quote 331 → 295.5 µs of CPU with it; 46.2 → 43.6 KB allocated keyed by object.
   */
  private parsed = new Map<TokenConfig, bigint | undefined>();
  private parsedRevision = -1;

  constructor(private readonly state: SandboxState) {}

  revision(): number {
    return this.state.current.pricesRevision;
  }

  usdPrice(token: TokenConfig): bigint | undefined {
    const { prices, pricesRevision } = this.state.current;
    if (pricesRevision !== this.parsedRevision) {
      this.parsed = new Map();
      this.parsedRevision = pricesRevision;
    }
    if (this.parsed.has(token)) return this.parsed.get(token);
    const entry = prices[priceKey(token.chain, token.address)];
    const price = entry ? parseDecimal(entry.usd) : undefined;
    this.parsed.set(token, price);
    return price;
  }
}

/**
 * The state brought to the configuration: a token whose configured price changed (or is new) takes
 * it, a token no longer priced leaves, and the walk is the configured one when the configuration
 * changed it. Undefined when nothing changes, so that a process starting next to others leaves a
 * price set by a control alone.
 */
export function reconcileWithConfig(values: Values, config: GatewayConfig): Values | undefined {
  const prices: Record<string, SandboxPrice> = {};
  let pricesChanged = false;
  for (const token of config.tokens) {
    if (token.priceUsd === undefined) continue;
    const key = priceKey(token.chain, token.address);
    const entry = values.prices[key];
    if (entry && entry.configured === token.priceUsd) prices[key] = entry;
    else {
      prices[key] = { usd: token.priceUsd, base: token.priceUsd, configured: token.priceUsd };
      pricesChanged = true;
    }
  }
  if (Object.keys(values.prices).some((key) => !(key in prices))) pricesChanged = true;
  const configuredWalk = JSON.stringify(config.priceWalk ?? null);
  const walkChanged = configuredWalk !== values.walkConfigured;
  if (!pricesChanged && !walkChanged) return undefined;
  return {
    ...values,
    prices,
    pricesRevision: values.pricesRevision + (pricesChanged ? 1 : 0),
    ...(walkChanged ? { walk: config.priceWalk ?? null, walkConfigured: configuredWalk } : {}),
  };
}

/** A token's price set by the control: it is also the base the walk wanders around from now on. */
export function withPrice(values: Values, key: string, usd: string): Values {
  const entry = values.prices[key]!;
  return { ...values, prices: { ...values.prices, [key]: { ...entry, usd, base: usd } }, pricesRevision: values.pricesRevision + 1 };
}

export function withWalk(values: Values, walk: PriceWalk | null): Values {
  return { ...values, walk, walkedAtMs: Date.now() };
}

/** Whether the walk is due to step at `nowMs` (a tenth of the interval early: the processes' timers do not tick together). */
function walkDue(values: Values, nowMs: number): boolean {
  return values.walk !== null && nowMs - values.walkedAtMs >= values.walk.intervalSeconds * 900;
}

/**
 * One step of the walk: each price moves by a random step of at most `maxStepBps`, staying within
 * `maxDeviationBps` of its base. Tokens with the same price and base move as one, so a wrapped token
 * keeps the price of what it wraps. Undefined when the step is not due.
 */
export function walkStep(values: Values, nowMs: number, stepPpm: (max: number) => number = randomStep): Values | undefined {
  const { walk } = values;
  if (!walk || !walkDue(values, nowMs)) return undefined;
  const moved = new Map<string, string>();
  const prices: Record<string, SandboxPrice> = {};
  for (const [key, entry] of Object.entries(values.prices)) {
    const group = `${entry.usd}|${entry.base}`;
    let usd = moved.get(group);
    if (usd === undefined) {
      usd = stepped(entry, walk, stepPpm(walk.maxStepBps * 100));
      moved.set(group, usd);
    }
    prices[key] = { ...entry, usd };
  }
  return { ...values, prices, pricesRevision: values.pricesRevision + 1, walkedAtMs: nowMs };
}

function stepped(entry: SandboxPrice, walk: PriceWalk, ppm: number): string {
  const price = parseDecimal(entry.usd);
  const base = parseDecimal(entry.base);
  const next = (price * BigInt(1_000_000 + ppm)) / 1_000_000n;
  const deviation = (base * BigInt(walk.maxDeviationBps)) / 10_000n;
  const bounded = next > base + deviation ? base + deviation : next < base - deviation ? base - deviation : next;
  const floor = 10n ** BigInt(18 - priceDecimals);
  return formatScaled(bounded < floor ? floor : bounded, priceDecimals);
}

const randomStep = (max: number) => (max === 0 ? 0 : randomInt(-max, max + 1));

/**
 * Steps the walk while the sandbox runs, in every process: whichever process finds the step due
 * first takes it (the state's row lock makes the others find it done).
 */
export function startPriceWalk(state: SandboxState, onError: (error: unknown) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      await state.refresh();
      if (walkDue(state.current, Date.now())) await state.update((values) => walkStep(values, Date.now()));
    } catch (error) {
      onError(error);
    }
    if (stopped) return;
    const walk = state.current.walk;
    timer = setTimeout(() => void tick(), walk ? Math.min(1000, walk.intervalSeconds * 500) : 1000);
    timer.unref();
  };
  timer = setTimeout(() => void tick(), 0);
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
