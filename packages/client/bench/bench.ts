/**
 * `pnpm --filter @swap-gateway/client bench`: the two budgets of the client, each printed beside
 * the alternative measured in the same run.
 *
 * 1. Size: a typical import (getQuote + createOrder + getOrder + waitForOrder) bundled by esbuild with
 *    tree-shaking, minified and gzipped, against the same calls made with openapi-fetch alone.
 *    Budget: 4.3 kB gzipped, and none of the adapters' libraries nor openapi-fetch in it. Then what
 *    executeQuote adds to it, the openapi-fetch subpath (`/api`), and each adapter subpath: its own
 *    code (its library left external, as the app already has it) and with its library bundled.
 * 2. Per-call overhead: client.getQuote against a plain fetch of the same request (then .json()),
 *    both against the same local node:http server, calls interleaved. Budget: 10% over plain fetch,
 *    like for like: the client with its defaults (no timeout, as fetch) against a bare fetch, and
 *    with a 30 s timeout against a fetch with the same timeout. openapi-fetch alone and the `/api`
 *    subpath (openapi-fetch over the client's transport) for reference.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { loadBundle } from '@swap-gateway/openapi';
import type { paths } from '@swap-gateway/types';
import createClient from 'openapi-fetch';
import { createGatewayApi } from '../dist/api.js';
import { createGatewayClient } from '../dist/index.js';
import { quoteParams } from '../test/support/fixtures.js';

const sizeBudgetBytes = 4.3 * 1024;
const overheadBudget = 0.1;

const distFile = (path: string) => JSON.stringify(fileURLToPath(new URL(`../dist/${path}`, import.meta.url)));
const clientEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const typicalImport = `
import { createGatewayClient } from ${JSON.stringify(clientEntry)};
const client = createGatewayClient({ apiKey: globalThis.GATEWAY_KEY });
export async function swap(params) {
  const quote = await client.getQuote(params);
  const order = await client.createOrder(quote);
  const id = Object.values(order)[0].order_id;
  await client.getOrder(id);
  return client.waitForOrder(id, { intervalMs: 5000 });
}`;
const openapiFetchOnly = `
import createClient from 'openapi-fetch';
const client = createClient({ baseUrl: 'https://api.swap-gateway.example', headers: { Authorization: 'Bearer ' + globalThis.GATEWAY_KEY } });
export async function swap(params) {
  const { data: quote } = await client.GET('/v4/get-quote', { params: { query: params } });
  const { data: order } = await client.POST('/v4/create-order', { body: quote });
  const id = Object.values(order)[0].order_id;
  return client.GET('/v4/get-order/{id}', { params: { path: { id } } });
}`;

const withExecuteQuote = `
import { createGatewayClient, executeQuote } from ${JSON.stringify(clientEntry)};
const client = createGatewayClient({ apiKey: globalThis.GATEWAY_KEY });
export async function swap(params, signer, onProgress) {
  return executeQuote(client, await client.getQuote(params), { signer, onProgress });
}`;

const withApi = `
import { createGatewayApi } from ${distFile('api.js')};
const api = createGatewayApi({ apiKey: globalThis.GATEWAY_KEY });
export const getOrder = (id) => api.GET('/v4/get-order/{id}', { params: { path: { id } } });`;

/** The peer dependency of each adapter subpath, and the call an app makes. */
const adapters: [subpath: string, peer: string, contents: string][] = [
  ['@swap-gateway/client/bitcoinjs', 'bitcoinjs-lib', `export { bitcoinjsSigner } from ${distFile('adapters/bitcoinjs.js')};`],
  ['@swap-gateway/client/viem', 'viem', `export { viemSender } from ${distFile('adapters/viem.js')};`],
  ['@swap-gateway/client/solana-web3', '@solana/web3.js', `export { solanaSigner } from ${distFile('adapters/solana-web3.js')};`],
];
/** What the core import must not bundle: the adapters' libraries, and openapi-fetch (the `/api` subpath's). */
const keptOut = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(bitcoinjs-lib|viem|@solana\/web3\.js|openapi-fetch)\//;

interface Size {
  minified: number;
  gzipped: number;
  /** Each module in the bundle and its minified bytes in it (esbuild's metafile). */
  inputs: [path: string, bytes: number][];
}

async function bundledSize(contents: string, external: string[] = []): Promise<Size> {
  const result = await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external,
    metafile: true,
    write: false,
  });
  const code = result.outputFiles[0]!.contents;
  const inputs = Object.entries(result.metafile.outputs).flatMap(([, output]) =>
    Object.entries(output.inputs).map(([path, { bytesInOutput }]): [string, number] => [path, bytesInOutput]),
  );
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength, inputs };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(2)} kB`;

async function measureSize(): Promise<boolean> {
  const client = await bundledSize(typicalImport);
  const alone = await bundledSize(openapiFetchOnly);
  const sizeOk = client.gzipped <= sizeBudgetBytes;
  const leaked = client.inputs.map(([path]) => path).filter((path) => keptOut.test(path));
  const row = (label: string, size: Size, note = '') =>
    console.log(`  ${label.padEnd(62)} ${kB(size.minified).padStart(9)} minified   ${kB(size.gzipped).padStart(8)} gzipped${note}`);
  console.log('Size of a typical import (getQuote + createOrder + getOrder + waitForOrder), esbuild --bundle --minify, tree-shaken');
  row('@swap-gateway/client (core import)', client);
  row('openapi-fetch alone', alone, '  (getQuote + createOrder + getOrder, no auth check, errors, retries, polling)');
  console.log(`  budget <= ${kB(sizeBudgetBytes)} gzipped: ${sizeOk ? 'PASS' : 'FAIL'}`);
  console.log(
    `  bitcoinjs-lib, viem, @solana/web3.js or openapi-fetch in the core import: ${leaked.length ? `FAIL ${leaked.join(', ')}` : 'none, PASS'}`,
  );
  console.log('  the core import by module, minified bytes in the bundle (gzip compresses the whole, not each):');
  for (const [path, bytes] of client.inputs.filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1])) {
    console.log(`    ${path.replace(/^.*node_modules\//, '').padEnd(60)} ${kB(bytes).padStart(9)}`);
  }
  console.log();
  console.log('Size of the rest, same bundler settings');
  row('core + executeQuote (getQuote + executeQuote)', await bundledSize(withExecuteQuote));
  row('@swap-gateway/client/api (createGatewayApi + api.GET)', await bundledSize(withApi));
  for (const [subpath, peer, contents] of adapters) {
    const own = await bundledSize(contents, [peer]);
    const whole = await bundledSize(contents);
    row(`${subpath} (${peer} external)`, own);
    if (whole.minified === own.minified) console.log(`  ${''.padEnd(62)} it imports only ${peer}'s types`);
    else row(`${subpath} with ${peer} bundled`, whole);
  }
  return sizeOk && leaked.length === 0;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measureOverhead(): Promise<boolean> {
  const document = loadBundle('gateway') as unknown as {
    paths: Record<
      string,
      { get: { responses: Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }> } }
    >;
  };
  const quote = JSON.stringify(document.paths['/v4/get-quote']!.get.responses['200']!.content['application/json']!.examples.onramp!.value);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(quote) });
    response.end(quote);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const params = quoteParams;
  const apiKey = 'k'.repeat(32);
  const url = `${baseUrl}/v4/get-quote?${new URLSearchParams({ ...params })}`;
  const headers = { Authorization: `Bearer ${apiKey}` };
  const client = createGatewayClient({ baseUrl, apiKey });
  const clientWithTimeout = createGatewayClient({ baseUrl, apiKey, timeoutMs: 30_000 });
  const openapiFetch = createClient<paths>({ baseUrl, headers });
  const api = createGatewayApi({ baseUrl, apiKey });
  const bare: Variant = ['plain fetch + .json()', async () => (await fetch(url, { headers })).json()];
  const timed: Variant = [
    'plain fetch + .json() with a 30 s AbortController timeout',
    async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      try {
        return await (await fetch(url, { headers, signal: controller.signal })).json();
      } finally {
        clearTimeout(timer);
      }
    },
  ];
  const clientDefault: Variant = ['client.getQuote (defaults: no timeout, like fetch; retries on)', () => client.getQuote(params)];
  const clientTimed: Variant = ['client.getQuote with timeoutMs: 30000', () => clientWithTimeout.getQuote(params)];

  // The budget: the client as an app calls it, against fetch, nothing else in the process yet.
  const budget = await interleave([bare, timed, clientDefault, clientTimed]);
  printRun('the client against plain fetch', budget);
  // The budget compares the same request: the client with its defaults against a bare fetch, and the
  // client with a 30 s timeout against a fetch that carries the same timeout (an abort signal costs
  // Node's fetch itself about 5%, shown by the second line).
  const [bareTime, timedTime, clientTime, clientTimedTime] = budget.map(([, time]) => time) as [number, number, number, number];
  const pairs: [label: string, overhead: number][] = [
    ['client (defaults) over plain fetch', clientTime / bareTime - 1],
    ['client (timeoutMs: 30000) over plain fetch with the same timeout', clientTimedTime / timedTime - 1],
  ];
  for (const [label, overhead] of pairs) {
    console.log(
      `  ${label}: ${(overhead * 100).toFixed(1)}%; budget < ${overheadBudget * 100}%: ${overhead < overheadBudget ? 'PASS' : 'FAIL'}`,
    );
  }

  // For reference, openapi-fetch alone and the /api subpath, with fetch and the client again in the
  // same run. Run apart from the budget's, because variants of one process slow each other: they
  // share fetch's code (and /api the client's transport), which V8 optimizes for the shapes of
  // objects it has seen, and their garbage is collected during whichever call comes next.
  console.log();
  printRun(
    'for reference: openapi-fetch, and the client beside it in one process',
    await interleave([
      bare,
      ['openapi-fetch alone (GET, no timeout)', async () => (await openapiFetch.GET('/v4/get-quote', { params: { query: params } })).data],
      [
        '@swap-gateway/client/api GET (openapi-fetch, the transport)',
        async () => (await api.GET('/v4/get-quote', { params: { query: params } })).data,
      ],
      clientDefault,
    ]),
  );
  server.close();
  return pairs.every(([, overhead]) => overhead < overheadBudget);
}

type Variant = [name: string, call: () => Promise<unknown>];
const warmup = 300;
const measured = 3000;

/**
 * Each variant's median time per call in µs. Calls are interleaved one by one, in a rotating order,
 * so that the load of other processes and the warmth of the process fall on every variant alike.
 */
async function interleave(variants: Variant[]): Promise<[name: string, microseconds: number][]> {
  const times = variants.map(() => [] as number[]);
  for (let i = 0; i < warmup + measured; i++) {
    for (let j = 0; j < variants.length; j++) {
      const index = (i + j) % variants.length;
      const started = performance.now();
      await variants[index]![1]();
      if (i >= warmup) times[index]!.push((performance.now() - started) * 1000);
    }
  }
  return variants.map(([name], index) => [name, median(times[index]!)]);
}

/** The medians of one run, each with its ratio to the first (plain fetch). */
function printRun(title: string, run: [name: string, microseconds: number][]): void {
  console.log(`Per-call time of GET /v4/get-quote on a local node:http server, ${title} (median of ${measured} calls each, interleaved)`);
  const baseline = run[0]![1];
  for (const [name, time] of run) {
    console.log(`  ${name.padEnd(60)} ${time.toFixed(1).padStart(6)} µs/call   ratio ${(time / baseline).toFixed(3)}`);
  }
}

const sizeOk = await measureSize();
console.log();
const overheadOk = await measureOverhead();
if (!sizeOk || !overheadOk) process.exitCode = 1;
