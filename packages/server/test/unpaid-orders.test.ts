/**
 * A client may hold only so many unpaid orders open (each reserves liquidity until it is paid or
 * expires): beyond the cap create-order answers 400 EXCEEDED_LIMIT, the document's example, naming
 * when the oldest expires; paying one frees a place; a key holder counts apart from its address.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../src/keys/keys.js';
import { client, documentedExample, freshDataDir, offrampParams, onrampParams, testServer, testServerPerSuite } from './helpers.js';

const expirySeconds = 900;
const { server, api } = testServerPerSuite({
  config: {
    orders: { defaultPageSize: 20, maxPageSize: 100, maxUnpaidPerClient: { anonymous: 2, apiKey: 3 } },
    lifecycle: { confirmationDelaySeconds: 30, payoutDelaySeconds: 30, unpaidOrderExpirySeconds: expirySeconds, tickMs: 0 },
  },
});

const create = async (caller: ReturnType<typeof client>, params: Record<string, string>) =>
  caller.post('/v4/create-order', (await caller.quote(params)).body);

describe('unpaid orders per client', () => {
  it('refuses the order beyond the cap with 400 until one is paid; a key counts apart', async () => {
    const first = await create(api, onrampParams({ amount: '100000' }));
    const second = await create(api, offrampParams({ amount: '5000001' }));
    expect([first.status, second.status]).toEqual([201, 201]);

    const liquidity = async () => (await api.get('/sandbox/liquidity')).body;
    const liquidityBefore = await liquidity();
    // An offramp is written in one statement, an onramp in a transaction (orders/queries.ts writeOrder):
    // in both the liquidity is reserved before the client's count refuses, and is given back.
    expect((await create(api, offrampParams({ amount: '5000002' }))).body).toMatchObject({ code: 'EXCEEDED_LIMIT' });
    const refused = await create(api, onrampParams({ amount: '100001' }));
    expect(refused.status).toBe(400);
    // The liquidity the refused orders would have reserved stays free.
    expect(await liquidity()).toEqual(liquidityBefore);
    // The example word for word, but for the time the oldest expires: the first order's creation here.
    const example = documentedExample('createOrderV4', '400', 'EXCEEDED_LIMIT');
    const [oldest] = await server().services.db.query<{ created_at: Date }>('SELECT created_at FROM orders WHERE id = $1', [
      first.body.onramp.order_id,
    ]);
    const expiry = new Date(oldest!.created_at.getTime() + expirySeconds * 1000).toISOString();
    expect(refused.body).toEqual({ ...example, error: example.error.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/, expiry) });
    expect(refused.headers.get('retry-after')).toBeNull();

    // A key holder has its own count, though it calls from the same address.
    const { key } = await issueApiKey(server().services.db, 'unpaid orders test');
    const keyed = client(server().url, { authorization: `Bearer ${key}` });
    for (const amount of ['100002', '100003', '100004']) expect((await create(keyed, onrampParams({ amount }))).status).toBe(201);
    expect((await create(keyed, onrampParams({ amount: '100005' }))).status).toBe(400);

    // Paid (its source transaction seen), an order no longer counts.
    expect((await api.post(`/sandbox/orders/${second.body.offramp.order_id}/source-sent`, {})).status).toBe(200);
    expect((await create(api, onrampParams({ amount: '100006' }))).status).toBe(201);
  });

  it('frees the place and the liquidity of an unpaid order when it expires', async () => {
    expect((await create(api, onrampParams({ amount: '100007' }))).status).toBe(400);
    await api.post('/sandbox/advance', { seconds: expirySeconds });
    expect((await create(api, onrampParams({ amount: '100008' }))).status).toBe(201);
  });

  it.each([
    { stored: 'its orders’ limit', before012: false },
    // Migration 012 gives the rows written before it the column's default, the largest integer.
    { stored: 'none, from before migration 012', before012: true },
  ])('refuses a client above a lowered limit until enough of its orders are paid (stored limit: $stored)', async ({ before012 }) => {
    const dataDir = freshDataDir();
    const limits = (anonymous: number) => ({
      orders: { defaultPageSize: 20, maxPageSize: 100, maxUnpaidPerClient: { anonymous, apiKey: 3 } },
    });
    try {
      let running = await testServer({ dataDir, config: limits(3) });
      let caller = client(running.url);
      const held: string[] = [];
      for (const amount of ['5000003', '5000004', '5000005']) {
        const created = await create(caller, offrampParams({ amount }));
        expect(created.status).toBe(201);
        held.push(created.body.offramp.order_id);
      }
      if (before012) {
        const rows = await running.services.db.query('UPDATE client_unpaid_orders SET unpaid_limit = DEFAULT RETURNING unpaid');
        expect(rows).toEqual([{ unpaid: 3 }]);
      }
      await running.close();

      // Restarted with a limit of 2: the client holds 3.
      running = await testServer({ dataDir, config: limits(2) });
      caller = client(running.url);
      try {
        const pay = (orderId: string) => caller.post(`/sandbox/orders/${orderId}/source-sent`, {});
        expect((await create(caller, offrampParams({ amount: '5000006' }))).body).toMatchObject({
          code: 'EXCEEDED_LIMIT',
          details: { limit: '2' },
        });
        expect((await pay(held[0]!)).status).toBe(200);
        expect((await create(caller, offrampParams({ amount: '5000007' }))).body).toMatchObject({ code: 'EXCEEDED_LIMIT' });
        expect((await pay(held[1]!)).status).toBe(200);
        expect((await create(caller, offrampParams({ amount: '5000008' }))).status).toBe(201);
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
