/** Nothing acknowledged is lost: a clean restart and a kill -9 keep quotes, orders, reservations and cursors. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client, freshDataDir, onrampParams, testServer, tokenSwapParams, wbtcBob } from './helpers.js';
import { shortLivedNodeFlags } from './fixtures/node-flags.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = freshDataDir();
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the empty store of the build', () => {
  it('is written for the PGlite version installed, so that no process runs initdb', () => {
    // src/store/empty-store.ts names the file by the version package.json pins and falls back to
    // initdb (seconds of CPU a process) when there is none: a range there, or a build that stopped
    // writing it, would make every start slow without failing anything else.
    const manifest = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
    const installed = manifest('../node_modules/@electric-sql/pglite/package.json').version;
    const pinned = manifest('../package.json').dependencies['@electric-sql/pglite'];
    expect(pinned).toBe(installed);
    expect(existsSync(new URL(`../dist/empty-store-pglite-${installed}.tar.gz`, import.meta.url))).toBe(true);
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then closes the store', async () => {
    const { SimulatedBitcoin } = await import('../src/chains/bitcoin.js');
    const simulated = new SimulatedBitcoin({ network: 'bitcoin', feeRate: 12, simulatedBalanceSats: '2500000' });
    let started!: () => void;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    // A Bitcoin backend that takes its time, so the request is in flight when close() is called.
    const slow = Object.assign(Object.create(simulated) as typeof simulated, {
      utxos: async (address: string) => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 500));
        return simulated.utxos(address);
      },
    });
    const server = await testServer({ adapters: { bitcoin: slow } });
    const inFlight = client(server.url).get('/v4/get-max-spendable/bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await requestStarted;
    await server.close();
    expect((await inFlight).status).toBe(200);
    await expect(server.services.db.query('SELECT 1')).rejects.toThrow();
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});

describe('restart', () => {
  it('keeps orders, unused quotes, reservations and cursors across a restart', async () => {
    const dataDir = tempDir();
    const user = '0x3333333333333333333333333333333333333333';
    let server = await testServer({ dataDir });
    let api = client(server.url);
    const orders: string[] = [];
    for (let i = 0; i < 3; i++)
      orders.push(
        (await api.post('/v4/create-order', (await api.quote(tokenSwapParams({ recipient: user }))).body)).body.tokenSwap.order_id,
      );
    const onramp = (await api.post('/v4/create-order', (await api.quote(onrampParams())).body)).body.onramp;
    const unused = (await api.quote(onrampParams())).body;
    const { nextCursor } = (await api.get(`/v4/get-orders/${user}?limit=1`)).body;
    const reserved = (await api.get('/sandbox/liquidity')).body.liquidity.find((row: { token: string }) => row.token === wbtcBob).reserved;
    await server.close();

    server = await testServer({ dataDir });
    api = client(server.url);
    try {
      expect((await api.get(`/v4/get-order/${onramp.order_id}`)).body).toMatchObject({
        id: onramp.order_id,
        depositAddress: onramp.address,
      });
      expect((await api.get(`/v4/get-orders/${user}?cursor=${nextCursor}`)).body.orders.map((order: { id: string }) => order.id)).toEqual([
        orders[1],
        orders[0],
      ]);
      expect((await api.get('/sandbox/liquidity')).body.liquidity.find((row: { token: string }) => row.token === wbtcBob).reserved).toBe(
        reserved,
      );
      const created = await api.post('/v4/create-order', unused);
      expect(created.status).toBe(201);
      // Deposit addresses keep counting: the new order does not reuse the old one's address.
      expect(created.body.onramp.address).not.toBe(onramp.address);
    } finally {
      await server.close();
    }
  });

  it('keeps an order acknowledged with 201 when the server is killed with SIGKILL', async () => {
    const dataDir = tempDir();
    // node itself runs the server, so the pid killed is the server's.
    const child = spawn(process.execPath, [...shortLivedNodeFlags, 'test/fixtures/child-server.mjs', dataDir], {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const line = chunk.toString().trim();
        if (line.startsWith('http://')) resolve(line);
      });
      child.on('exit', (code) => reject(new Error(`the child server exited with ${code}`)));
    });
    const api = client(url);
    const created = await api.post('/v4/create-order', (await api.quote(onrampParams())).body);
    expect(created.status).toBe(201);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const server = await testServer({ dataDir });
    try {
      const found = await client(server.url).get(`/v4/get-order/${created.body.onramp.order_id}`);
      expect(found).toMatchObject({ status: 200, body: { id: created.body.onramp.order_id, depositAddress: created.body.onramp.address } });
    } finally {
      await server.close();
    }
  });
});
