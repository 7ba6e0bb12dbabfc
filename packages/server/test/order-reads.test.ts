/**
 * get-order on the embedded store answers an order as the last write of this process left it, from
 * memory: a write hands the view the row as the statement wrote it (orders/reads.ts). What it answers
 * is what a server reading the store answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import type { Database } from '../src/store/database.js';
import { client, databaseOf, offrampParams, testServer } from './helpers.js';

describe('get-order after each write of an order, on the embedded store', () => {
  let writer: RunningServer;
  /** The store, for the readers: a view of it taken before the writer's reads are counted. */
  let store: Database;
  /** The writer's reads of an order by id. */
  const reads: string[] = [];

  beforeAll(async () => {
    writer = await testServer({ config: { lifecycle: { confirmationDelaySeconds: 0, payoutDelaySeconds: 0 } } });
    store = databaseOf(writer);
    const db = writer.services.db;
    const query = db.query.bind(db);
    db.query = ((sql: string, params?: unknown[]) => {
      if (/FROM orders WHERE id = /.test(sql)) reads.push(sql);
      return query(sql, params);
    }) as typeof db.query;
  });

  afterAll(() => writer?.close());

  it('answers each state as written, reading no row, as a read of the store answers it', async () => {
    const api = client(writer.url);
    const created = await api.post('/v4/create-order', (await api.quote(offrampParams())).body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.offramp.order_id as string;
    const statuses: unknown[] = [];
    const answered = async () => {
      // A server on the same store whose view holds nothing yet: it reads the order from the store.
      const reader = await testServer({ database: { ...store } });
      try {
        reads.length = 0;
        const answer = await api.get(`/v4/get-order/${id}`);
        const stored = await client(reader.url).get(`/v4/get-order/${id}`);
        expect(reads).toEqual([]);
        expect(answer.status).toBe(200);
        // The estimated time counts down by the second, and one may turn between the two answers.
        expect({ ...answer.body, estimatedTimeInSecs: 0 }).toEqual({ ...stored.body, estimatedTimeInSecs: 0 });
        expect(Math.abs(answer.body.estimatedTimeInSecs - stored.body.estimatedTimeInSecs)).toBeLessThanOrEqual(1);
        statuses.push(answer.body.status);
      } finally {
        await reader.close();
      }
    };

    await answered();
    expect((await api.post(`/sandbox/orders/${id}/source-sent`, {})).status).toBe(200);
    await answered();
    // The source confirms at once: the first pass sends the payout, the next one settles the order.
    await writer.services.lifecycle.tick();
    await answered();
    await writer.services.lifecycle.tick();
    await answered();
    expect(statuses[2]).toMatchObject({ inProgress: { pending_btc_payment: { txid: expect.stringMatching(/^[0-9a-f]{64}$/) } } });
    expect(Object.keys(statuses[3] as object)).toEqual(['success']);
  });
});
