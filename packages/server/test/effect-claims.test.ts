/**
 * A payout is sent once, however its instance fares: a live instance keeps its claim alive while a
 * slow chain call runs (no other instance sends it again), and the claim of an instance killed
 * mid-send is taken over within seconds, the transfer asked for again with the same idempotency
 * key, which the chain honours (one transfer). Two gateways on one PostgreSQL; the simulated chains
 * record their transfers by key in the store.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findPostgres, type PostgresCluster } from '@swap-gateway/test-support/postgres';
import type { RunningServer } from '../src/index.js';
import { configFile } from './fixtures/config-file.js';
import { startWorkers } from './fixtures/workers.js';
import { client, offrampParams, startTestPostgres, testServer } from './helpers.js';

const binaries = findPostgres();
if ('missing' in binaries) {
  // CI installs PostgreSQL (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the payout claim tests cannot run in CI: ${binaries.missing}`);
  console.warn(`[server] skipping the payout claim tests: ${binaries.missing}`);
}

/** Confirmed as soon as seen: a payout is due as soon as the source transaction is registered. */
const lifecycle = { confirmationDelaySeconds: 0, payoutDelaySeconds: 30, unpaidOrderExpirySeconds: 900 };

describe.skipIf('missing' in binaries)('payout claims across instances', () => {
  let cluster: PostgresCluster;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    cluster = await startTestPostgres(binaries);
  });
  /** Each test's gateways are closed after it: a running one would take part in the next test's claims. */
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  afterAll(() => cluster?.stop());

  const gateway = async (config: { effectLeaseSeconds: number; simulatedSendMs: number; tickMs: number }) => {
    const server = await testServer({ databaseUrl: cluster.url, dataDir: undefined, config: { lifecycle: { ...lifecycle, ...config } } });
    servers.push(server);
    return server;
  };
  const offramp = async (url: string, amount: string) => {
    const api = client(url);
    const created = await api.post('/v4/create-order', (await api.quote(offrampParams({ amount }))).body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.offramp.order_id as string;
    expect((await api.post(`/sandbox/orders/${id}/source-sent`, {})).status).toBe(200);
    return id;
  };
  const payoutTxid = async (url: string, id: string): Promise<string | undefined> =>
    (await client(url).get(`/v4/get-order/${id}`)).body.status.inProgress?.pending_btc_payment?.txid;
  const transfers = (server: RunningServer, id: string) =>
    server.services.db.query<{ tx_hash: string; attempts: number }>(
      'SELECT tx_hash, attempts FROM simulated_transfers WHERE idempotency_key = $1',
      [`${id}:payout`],
    );

  it('keeps the claim of a live instance whose send outlasts the lease: sent once', async () => {
    // Each send takes 2.5 s, two and a half leases: without renewal the other instance would take the claim over.
    const [first, second] = [
      await gateway({ effectLeaseSeconds: 1, simulatedSendMs: 2500, tickMs: 50 }),
      await gateway({ effectLeaseSeconds: 1, simulatedSendMs: 2500, tickMs: 50 }),
    ];
    const id = await offramp(first!.url, '1500000');
    while (!(await payoutTxid(second!.url, id))) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await transfers(first!, id)).toEqual([{ tx_hash: await payoutTxid(first!.url, id), attempts: 1 }]);
  }, 60_000);

  it('takes over the claim of an instance killed mid-send within seconds, and the chain makes one transfer', async () => {
    // Its sends never answer in time: it is killed while one is under way.
    const config = configFile({ lifecycle: { ...lifecycle, effectLeaseSeconds: 2, simulatedSendMs: 600_000, tickMs: 50 } });
    const dying = startWorkers(1, { DATABASE_URL: cluster.url, GATEWAY_CONFIG: config });
    try {
      await dying.listened(1);
      const taking = await gateway({ effectLeaseSeconds: 2, simulatedSendMs: 0, tickMs: 0 });
      const id = await offramp(dying.listening[0]!.url, '1600000');
      const claimant = async () =>
        (await taking.services.db.query<{ claimed_by: string }>('SELECT claimed_by FROM order_effects WHERE order_id = $1', [id]))[0]
          ?.claimed_by;
      // Mid-send: the claim taken and the transfer made, the chain's answer still awaited. The claim
      // is written before the transfer, so an instance killed on seeing the claim alone had at times
      // made none, and the chain counted one attempt, not two.
      while (!(await claimant()) || (await transfers(taking, id)).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      const dead = await claimant();
      process.kill(dying.listening[0]!.pid, 'SIGKILL');
      const killedAt = Date.now();

      taking.services.lifecycle.start(100);
      while (!(await payoutTxid(taking.url, id))) await new Promise((resolve) => setTimeout(resolve, 100));
      // The lease (2 s) and a pass, a few seconds on a busy machine: not the five minutes of the lease before renewal.
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      expect(await claimant()).not.toBe(dead);
      // The killed instance's transfer was made; asked again with the same key, the chain made no other.
      expect(await transfers(taking, id)).toEqual([{ tx_hash: await payoutTxid(taking.url, id), attempts: 2 }]);
    } finally {
      await dying.stop();
    }
  }, 90_000);
});
