/**
 * The sandbox's market (src/sandbox/prices.ts): prices brought to the configuration, set by the
 * control, and moved by the random walk, in whole and through HTTP.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { reconcileWithConfig, priceKey, walkStep } from '../src/sandbox/prices.js';
import type { SandboxValues } from '../src/sandbox/state.js';
import { btc, offrampParams, testServerPerSuite, wbtcBob } from './helpers.js';

const config = loadConfig({ env: {} });
const empty: SandboxValues = { clockOffsetMs: 0, faults: 0, prices: {}, pricesRevision: 0, walk: null, walkConfigured: '', walkedAtMs: 0 };
const walk = { intervalSeconds: 1, maxStepBps: 100, maxDeviationBps: 150 };

describe('prices brought to the configuration', () => {
  it('takes every configured price, then leaves the state alone until the configuration changes', () => {
    const first = reconcileWithConfig(empty, config)!;
    expect(first.prices[priceKey('bitcoin', btc)]).toEqual({ usd: '97000', base: '97000', configured: '97000' });
    expect(first.pricesRevision).toBe(1);
    expect(reconcileWithConfig(first, config)).toBeUndefined();
    const set = { ...first, prices: { ...first.prices, [priceKey('bitcoin', btc)]: { usd: '90000', base: '90000', configured: '97000' } } };
    expect(reconcileWithConfig(set, config), 'a price set by the control stays').toBeUndefined();
    const changed = { ...config, tokens: config.tokens.map((token) => (token.symbol === 'BTC' ? { ...token, priceUsd: '98000' } : token)) };
    expect(reconcileWithConfig(set, changed)!.prices[priceKey('bitcoin', btc)]).toEqual({
      usd: '98000',
      base: '98000',
      configured: '98000',
    });
    expect(reconcileWithConfig(first, { ...config, priceWalk: walk })!.walk).toEqual(walk);
  });
});

describe('the random walk', () => {
  const start = { ...reconcileWithConfig(empty, config)!, walk, walkedAtMs: 0 };

  it('steps once an interval, moving tokens of one price as one, within the deviation', () => {
    expect(walkStep({ ...start, walkedAtMs: 500 }, 1000), 'not due yet').toBeUndefined();
    const up = walkStep(start, 1000, (max) => max)!;
    expect(up.pricesRevision).toBe(start.pricesRevision + 1);
    expect(up.walkedAtMs).toBe(1000);
    expect(up.prices[priceKey('bitcoin', btc)]!.usd).toBe('97970.00000000');
    expect(up.prices[priceKey('bob', wbtcBob)]!.usd, 'wrapped BTC keeps the price of BTC').toBe('97970.00000000');
    // A second full step up would pass 1.5% above the base: the walk stops at it.
    const capped = walkStep(up, 2000, (max) => max)!;
    expect(capped.prices[priceKey('bitcoin', btc)]!.usd).toBe('98455.00000000');
    const down = walkStep(start, 1000, (max) => -max)!;
    expect(down.prices[priceKey('bitcoin', btc)]!.usd).toBe('96030.00000000');
  });
});

describe('the price controls', () => {
  const { api } = testServerPerSuite();

  it('sets a price that quotes use, and refuses what is not a price of a priced token', async () => {
    const before = (await api.quote(offrampParams())).body.offramp.outputAmount.amount;
    const set = await api.post('/sandbox/prices', { chain: 'bitcoin', token: btc, priceUsd: '48500' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.prices.find((price: { symbol: string }) => price.symbol === 'BTC').priceUsd).toBe('48500');
    const after = (await api.quote(offrampParams())).body.offramp.outputAmount.amount;
    // Half the price of BTC: about twice the sats for the same WBTC (the fees in sats stay).
    expect(Number(after) / Number(before)).toBeGreaterThan(1.9);
    for (const body of [
      { chain: 'bitcoin', token: btc, priceUsd: '-1' },
      { chain: 'bitcoin', token: btc, priceUsd: 97000 },
      { chain: 'bitcoin', token: btc, priceUsd: '0' },
      { chain: 'bitcoin', token: btc, priceUsd: '1.123456789' },
      { chain: 'base', token: '0x4200000000000000000000000000000000000006', priceUsd: '3500' },
      { chain: 'nowhere', token: btc, priceUsd: '1' },
    ]) {
      const answer = await api.post('/sandbox/prices', body);
      expect(answer, JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    }
    await api.post('/sandbox/prices', { chain: 'bitcoin', token: btc, priceUsd: '97000' });
  });

  it('walks the prices while the walk is on, and stops it', async () => {
    const bad = await api.post('/sandbox/prices/walk', { intervalSeconds: 0, maxStepBps: 5 });
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', error: expect.stringMatching(/intervalSeconds/) } });
    const started = await api.post('/sandbox/prices/walk', { intervalSeconds: 0.1, maxStepBps: 50, maxDeviationBps: 200 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const revision = started.body.revision as number;
    let now = started.body;
    for (let waited = 0; waited < 50 && now.revision < revision + 3; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = (await api.get('/sandbox/prices')).body;
    }
    expect(now.revision, 'three steps within five seconds').toBeGreaterThanOrEqual(revision + 3);
    const price = (symbol: string, chain: string) =>
      Number(now.prices.find((entry: { symbol: string; chain: string }) => entry.symbol === symbol && entry.chain === chain).priceUsd);
    expect(price('BTC', 'bitcoin')).not.toBe(97000);
    expect(price('WBTC', 'bob')).toBe(price('BTC', 'bitcoin'));
    expect(Math.abs(price('BTC', 'bitcoin') - 97000)).toBeLessThanOrEqual(97000 * 0.02);
    const stopped = await api.call('DELETE', '/sandbox/prices/walk');
    expect(stopped.body.walk).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await api.get('/sandbox/prices')).body.revision).toBe(stopped.body.revision);
  });
});

describe('with a price adapter', () => {
  // The adapter is the only price there is: the sandbox's prices would list, set and walk others.
  const { api } = testServerPerSuite({ adapters: { prices: { usdPrice: () => 97_000n * 10n ** 18n, revision: () => 0 } } });

  it('serves none of the price controls', async () => {
    for (const [method, path] of [
      ['GET', '/sandbox/prices'],
      ['POST', '/sandbox/prices'],
      ['POST', '/sandbox/prices/walk'],
      ['DELETE', '/sandbox/prices/walk'],
    ] as const) {
      const answer = await api.call(method, path, method === 'POST' ? {} : undefined);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(404);
    }
    expect((await api.post('/sandbox/advance', { seconds: 1 })).status, 'the other controls are served').toBe(200);
  });
});
