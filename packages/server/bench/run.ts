/**
 * `pnpm --filter @swap-gateway/server bench`: get-quote and get-order under load (autocannon, on
 * loopback) against the gateway server and the Prism mock in the same run, with a bare node:http
 * server answering a fixed JSON body as the ceiling of this machine. Each run lasts BENCH_SECONDS
 * (default 5) per row. The server runs as `pnpm server` does: embedded store in a data directory,
 * every response checked against the document; only the rate limit is raised out of the way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startMock } from '@swap-gateway/mock';
import { startServer } from '../src/index.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const quoteQuery = new URLSearchParams({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  refundAddress: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
  affiliates: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045:25',
});

interface Row {
  target: string;
  operation: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(target: string, operation: string, url: string): Promise<Row> {
  const result = await autocannon({ url, connections, duration: seconds });
  return {
    target,
    operation,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
const server = await startServer({ port: 0, dataDir, config: { rateLimits: { windowSeconds: 60, anonymous: 1e9, apiKey: 2e9 }, lifecycle: { confirmationDelaySeconds: 30, payoutDelaySeconds: 30, tickMs: 0 } } });
const mock = await startMock();
const fixed = JSON.stringify({ id: '8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12', status: { inProgress: { pending_btc_payment: null, refund_tx: null } } });
const bare = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(fixed));
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

try {
  const quote = await (await fetch(`${server.url}/v4/get-quote?${quoteQuery}`)).json();
  const created = (await (await fetch(`${server.url}/v4/create-order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(quote) })).json()) as { onramp: { order_id: string } };
  const rows = [
    await load('gateway server', 'get-quote', `${server.url}/v4/get-quote?${quoteQuery}`),
    await load('gateway server', 'get-order', `${server.url}/v4/get-order/${created.onramp.order_id}`),
    await load('Prism mock', 'get-quote', `${mock.url}/v4/get-quote?${quoteQuery}`),
    await load('Prism mock', 'get-order', `${mock.url}/v4/get-order/8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12`),
    await load('bare node:http', 'fixed JSON', bareUrl),
  ];
  const ceiling = rows[rows.length - 1]!.requestsPerSecond;
  console.log(`\n${connections} connections, ${seconds} s per row, loopback, Node ${process.version}\n`);
  console.log('| target | operation | requests/s | p50 ms | p99 ms | % of bare node | non-2xx/errors |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    console.log(`| ${row.target} | ${row.operation} | ${Math.round(row.requestsPerSecond)} | ${row.p50} | ${row.p99} | ${((row.requestsPerSecond / ceiling) * 100).toFixed(1)}% | ${row.errors} |`);
  }
} finally {
  bare.close();
  await mock.stop();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
