/**
 * The lifecycle's cost follows the work due, not the orders open: a pass looks only at the orders
 * on its agenda whose time has come, and a slow transfer holds its own order, not the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedChains, type SettlementOrder, type TransferRequest } from '../src/chains/settlement.js';
import { loadConfig, type RunningServer } from '../src/index.js';
import { seedOpenOrders } from './fixtures/open-orders.js';
import { client, offrampParams, testServer } from './helpers.js';

const lifecycleConfig = loadConfig({ env: {} }).lifecycle;

/** The simulated chains, counting the orders they are asked about. */
class CountingChains extends SimulatedChains {
  readonly asked = new Set<string>();
  looks = 0;
  override paymentWindowClosed(order: SettlementOrder, nowMs: number): boolean {
    this.looks++;
    this.asked.add(order.id);
    return super.paymentWindowClosed(order, nowMs);
  }
}

describe('a pass with 20,000 orders open', () => {
  const chains = new CountingChains(lifecycleConfig);
  let server: RunningServer;
  beforeAll(async () => {
    server = await testServer({ adapters: { settlement: chains } });
  });
  afterAll(() => server.close());

  it('looks only at the orders due: the new one, not the 20,000 waiting for their payment', async () => {
    const { db } = server.services;
    await seedOpenOrders(db, 20_000, 3600);
    const api = client(server.url);
    const created = await api.post('/v4/create-order', (await api.quote(offrampParams())).body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    await server.services.lifecycle.tick();
    expect([...chains.asked]).toEqual([created.body.offramp.order_id]);
    // Looked at once, it is due again when its payment window closes: the next pass looks at nothing.
    chains.looks = 0;
    await server.services.lifecycle.tick();
    expect(chains.looks).toBe(0);
  });
});

/** The simulated chains, holding the payouts of the orders named until released. */
class HeldPayouts extends SimulatedChains {
  readonly held = new Map<string, () => void>();
  readonly holding = new Set<string>();
  override async sendPayout(request: TransferRequest): Promise<string> {
    if (this.holding.has(request.order.id)) await new Promise<void>((resolve) => this.held.set(request.order.id, resolve));
    return super.sendPayout(request);
  }
}

describe('a payout that takes its time', () => {
  const chains = new HeldPayouts({ ...lifecycleConfig, confirmationDelaySeconds: 0 });
  let server: RunningServer;
  beforeAll(async () => {
    server = await testServer({ adapters: { settlement: chains }, config: { lifecycle: { ...lifecycleConfig, tickMs: 20 } } });
  });
  afterAll(() => {
    for (const release of chains.held.values()) release();
    return server.close();
  });

  it('holds its own order, not the payouts of the orders after it', async () => {
    const api = client(server.url);
    const offramp = async (amount: string) => {
      const created = await api.post('/v4/create-order', (await api.quote(offrampParams({ amount }))).body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.offramp.order_id as string;
    };
    const payout = async (id: string) => (await api.get(`/v4/get-order/${id}`)).body.status.inProgress?.pending_btc_payment?.txid;
    const slow = await offramp('1500000');
    const next = await offramp('1600000');
    chains.holding.add(slow);
    expect((await api.post(`/sandbox/orders/${slow}/source-sent`, {})).status).toBe(200);
    while (!chains.held.has(slow)) await new Promise((resolve) => setTimeout(resolve, 10));

    expect((await api.post(`/sandbox/orders/${next}/source-sent`, {})).status).toBe(200);
    // The background loop runs every 20 ms; the slow payout stays held throughout.
    while (!(await payout(next))) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await payout(slow)).toBeUndefined();

    chains.held.get(slow)!();
    while (!(await payout(slow))) await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('closes though a payout never answers: the claim is left to be taken over', async () => {
    const api = client(server.url);
    const created = await api.post('/v4/create-order', (await api.quote(offrampParams({ amount: '1700000' }))).body);
    const hung = created.body.offramp.order_id as string;
    chains.holding.add(hung);
    expect((await api.post(`/sandbox/orders/${hung}/source-sent`, {})).status).toBe(200);
    while (!chains.held.has(hung)) await new Promise((resolve) => setTimeout(resolve, 10));
    // Closing waits this long for the hung payout, then abandons it; the default 5 s would only slow the test.
    server.services.lifecycle.stopWaitMs = 100;
    await server.close();
  });
});

describe('an advance while a look that read the old time is under way', () => {
  /** What these tests wait for happens within milliseconds; a loaded machine may take seconds. */
  const waitLong = { timeout: 10_000 };

  let server: RunningServer;
  beforeAll(async () => {
    server = await testServer();
  });
  afterAll(() => server.close());

  /**
   * An order whose source was just seen is due its next look when that source confirms. Due now
   * instead, as an adapter polling a chain would have it, the look finds it unconfirmed at the old
   * time and writes its next due time.
   */
  const dueNow = (id: string) => server.services.db.query('UPDATE order_agenda SET due_at = to_timestamp(0) WHERE order_id = $1', [id]);

  it('looks at that order again at the new time before it answers', async () => {
    const api = client(server.url);
    const created = await api.post('/v4/create-order', (await api.quote(offrampParams({ amount: '1800000' }))).body);
    const id = created.body.offramp.order_id as string;
    expect((await api.post(`/sandbox/orders/${id}/source-sent`, {})).status).toBe(200);
    await dueNow(id);

    // The store holds the look's next due time back (its source is not confirmed yet at the old
    // time) until the advance's pass reads the orders due, or a second has passed.
    // The lifecycle's statements: on the embedded store, the database's background.
    const db = server.services.db.background;
    const query = db.query.bind(db);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    db.query = (async (sql: string, params?: unknown[]) => {
      if (sql.startsWith('UPDATE order_agenda SET due_at') && !holding) {
        holding = true;
        setTimeout(release, 1000);
        await released;
      } else if (holding && sql.includes('FROM order_agenda JOIN orders')) release();
      return query(sql, params);
    }) as typeof db.query;
    try {
      const look = server.services.lifecycle.tick();
      await expect.poll(() => holding, waitLong).toBe(true);
      expect((await api.post('/sandbox/advance', { seconds: 31 })).status).toBe(200);
      await look;
    } finally {
      db.query = query;
    }
    const status = (await api.get(`/v4/get-order/${id}`)).body.status;
    expect(status).toMatchObject({ inProgress: { pending_btc_payment: { txid: expect.stringMatching(/^[0-9a-f]{64}$/) } } });
  });

  it('looks at it at the new time though a pass that left it out is still under way when the look ends', async () => {
    const api = client(server.url);
    const created = await api.post('/v4/create-order', (await api.quote(offrampParams({ amount: '1900000' }))).body);
    const id = created.body.offramp.order_id as string;
    expect((await api.post(`/sandbox/orders/${id}/source-sent`, {})).status).toBe(200);
    await dueNow(id);

    // The look at the old time is held at its reschedule; a pass that starts meanwhile (the
    // background loop's, after the clock moved) leaves the order out, and is held until the look has ended.
    const { lifecycle, sandbox } = server.services;
    const db = server.services.db.background;
    const query = db.query.bind(db);
    let releaseLook = () => {};
    const lookReleased = new Promise<void>((resolve) => (releaseLook = resolve));
    let lookEnded: Promise<unknown> | undefined;
    let passLeftItOut = false;
    db.query = ((sql: string, params?: unknown[]) => {
      if (sql.startsWith('UPDATE order_agenda SET due_at') && !lookEnded) {
        lookEnded = lookReleased.then(() => query(sql, params));
        return lookEnded;
      }
      if (lookEnded && sql.includes('FROM order_agenda JOIN orders') && (params?.[2] as string[] | undefined)?.includes(id)) {
        passLeftItOut = true;
        return lookEnded.then(() => new Promise((resolve) => setTimeout(resolve, 50))).then(() => query(sql, params));
      }
      return query(sql, params);
    }) as typeof db.query;
    try {
      const look = lifecycle.tick();
      await expect.poll(() => lookEnded !== undefined, waitLong).toBe(true);
      const offset = sandbox!.state.current.clockOffsetMs;
      const advanced = api.post('/sandbox/advance', { seconds: 31 });
      await expect.poll(() => sandbox!.state.current.clockOffsetMs, waitLong).toBeGreaterThan(offset);
      const pass = lifecycle.tick();
      await expect.poll(() => passLeftItOut, waitLong).toBe(true);
      releaseLook();
      expect((await advanced).status).toBe(200);
      await Promise.all([look, pass]);
    } finally {
      db.query = query;
    }
    const status = (await api.get(`/v4/get-order/${id}`)).body.status;
    expect(status).toMatchObject({ inProgress: { pending_btc_payment: { txid: expect.stringMatching(/^[0-9a-f]{64}$/) } } });
  });
});
