/**
 * Nothing acknowledged is lost with several processes on one PostgreSQL: `--workers 2` takes
 * create-orders while one worker is killed with SIGKILL; every order answered with 201 is found
 * afterwards, and the primary has replaced the killed worker.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, onrampParams, testServer } from './helpers.js';
import { findPostgres, startPostgres, type PostgresCluster } from '@swap-gateway/test-support/postgres';

const binaries = findPostgres();
if ('missing' in binaries) {
  // CI installs PostgreSQL (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the PostgreSQL kill -9 test cannot run in CI: ${binaries.missing}`);
  console.warn(`[server] skipping the PostgreSQL kill -9 test: ${binaries.missing}`);
}

describe.skipIf('missing' in binaries)('kill -9 of a worker on PostgreSQL', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres(binaries as Exclude<typeof binaries, { missing: string }>);
  });
  afterAll(() => cluster?.stop());

  it('keeps every order acknowledged with 201 when a worker is killed while orders arrive', async () => {
    // node itself runs the primary (tsx as a loader); its workers log their pid with their address.
    const primary = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--workers', '2', '--port', '0'], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, DATABASE_URL: cluster.url, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const listening: Array<{ pid: number; url: string }> = [];
    let output = '';
    const workersUp = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          for (const line of output.split('\n')) {
            const match = /"pid":(\d+).*listening on (http:\/\/[^\s"]+)/.exec(line);
            if (match && !listening.some((worker) => worker.pid === Number(match[1])))
              listening.push({ pid: Number(match[1]), url: match[2]! });
          }
          if (listening.length >= count) {
            primary.stdout!.off('data', check);
            resolve();
          }
        };
        primary.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          check();
        });
        primary.once('exit', (code) => reject(new Error(`the primary exited with ${code}:\n${output}`)));
      });
    const exited = new Promise<void>((resolve) => primary.once('exit', () => resolve()));
    try {
      await workersUp(2);
      const api = client(listening[0]!.url);
      const quotes = await Promise.all(Array.from({ length: 40 }, async () => (await api.quote(onrampParams())).body));
      const answers = quotes.map(async (quote, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * 10));
        return api.post('/v4/create-order', quote).catch(() => undefined);
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.kill(listening[0]!.pid, 'SIGKILL');
      const acknowledged = (await Promise.all(answers))
        .filter((answer) => answer?.status === 201)
        .map((answer) => answer!.body.onramp.order_id as string);
      expect(acknowledged.length).toBeGreaterThan(0);
      await workersUp(3);

      const server = await testServer({ databaseUrl: cluster.url, dataDir: undefined });
      try {
        for (const id of acknowledged) expect((await client(server.url).get(`/v4/get-order/${id}`)).status, id).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      primary.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
