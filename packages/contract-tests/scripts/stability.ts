/**
 * `pnpm --filter @swap-gateway/contract-tests stability [-- --runs 20 --load-every 2 --load-seconds 10 --key-rate-limit N]`:
 * the staging target, run after run against ONE long-running staging-like deployment (its store
 * keeps every earlier run's orders), with a bounded load on loopback before every `load-every`-th
 * run, so that the next run starts right after the server was busy. The load (autocannon, in this
 * process, never in the server's) comes from another client with its own key; it reads get-routes,
 * get-quote and get-orders (`--key-rate-limit N` raises the deployment's per-key limit, so that the
 * load does the work instead of collecting 429s). Prints one line per run and exits non-zero when
 * any run failed.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sandboxControls } from '@swap-gateway/test-support/sandbox';
import { deploymentCapabilities, startDeployment } from '../src/deployment.js';
import { runSuite } from '../src/run-suite.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((argument) => argument !== '--'),
  options: {
    runs: { type: 'string', default: '20' },
    'load-every': { type: 'string', default: '2' },
    'load-seconds': { type: 'string', default: '10' },
    // The per-key rate limit of the deployment; raised, the load is real work rather than 429s.
    'key-rate-limit': { type: 'string' },
  },
});
const runs = Number(values.runs);
const loadEvery = Number(values['load-every']);
const loadSeconds = Math.min(Number(values['load-seconds']), 30);

// An onramp quote and a listing, as a busy integrator would ask them.
const recipient = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
const quote = new URLSearchParams({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '100000',
  recipient,
  refundAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
});

async function load(url: string, apiKey: string): Promise<string> {
  const result = await autocannon({
    url,
    connections: 10,
    duration: loadSeconds,
    headers: { authorization: `Bearer ${apiKey}` },
    requests: [{ path: '/v4/get-routes' }, { path: `/v4/get-quote?${quote}` }, { path: `/v4/get-orders/${recipient}?limit=5` }],
  });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([status, { count }]) => `${status}×${count}`)
    .join(' ');
  return `load ${loadSeconds} s: ${result.requests.total} requests, ${Math.round(result.requests.average)}/s, p99 ${result.latency.p99} ms, ${statuses}, ${result.errors} errors`;
}

/** The market maker's reservations left after a run (the suite releases its own orders through the sandbox control). */
async function reserved(url: string, apiKey: string, sandboxKey: string): Promise<string> {
  const liquidity = await sandboxControls(url, { apiKey, sandboxKey }).liquidity();
  const held = liquidity.filter((row) => row.reserved !== '0');
  return held.length ? held.map((row) => `${row.chain}:${row.token.slice(0, 8)} ${row.reserved}`).join(', ') : 'none';
}

const deployment = await startDeployment(values['key-rate-limit'] ? { GATEWAY_RATE_LIMIT_API_KEY: values['key-rate-limit'] } : {});
let failed = 0;
try {
  const suiteKey = await deployment.issueKey('contract-suite');
  const loadKey = await deployment.issueKey('load');
  console.log(
    `stability: ${runs} staging runs against one deployment at ${deployment.url}, a ${loadSeconds} s load before every ${loadEvery}. run, per-key rate limit ${values['key-rate-limit'] ?? 'as configured'}`,
  );
  const lines: string[] = [];
  for (let run = 1; run <= runs; run++) {
    const loaded = (run - 1) % loadEvery === 0 ? await load(deployment.url, loadKey) : 'no load';
    const started = Date.now();
    const status = await runSuite({
      GATEWAY_TARGET: 'staging',
      GATEWAY_STAGING_URL: deployment.url,
      GATEWAY_API_KEY: suiteKey,
      GATEWAY_SANDBOX_KEY: deployment.sandboxKey,
      GATEWAY_ALLOW_WRITES: '1',
      GATEWAY_CAPABILITIES: deploymentCapabilities,
    });
    if (status !== 0) failed++;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    lines.push(
      `run ${String(run).padStart(2)}: ${status === 0 ? 'green' : `FAILED (exit ${status})`} in ${seconds} s; reserved after it: ${await reserved(deployment.url, suiteKey, deployment.sandboxKey)}; before it: ${loaded}`,
    );
    console.log(`\n[stability] ${lines.at(-1)}\n`);
  }
  console.log(`\nstability summary (${runs - failed}/${runs} green):\n${lines.join('\n')}`);
} finally {
  await deployment.stop();
}
process.exit(failed ? 1 : 0);
