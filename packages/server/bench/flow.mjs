// Load generator of the order-flow rows, in a process of its own: `users` users at once, each one
// swapping again and again as a wallet does: get-quote (an amount of its own every time), create-order
// with the quote as answered, the source transaction sent (the sandbox's indexer told, as a user's
// broadcast would be seen), then get-order once a second until the order settles. Offramps and
// token swaps alternate. The users arrive one after another, evenly over `arrival seconds` (default 1);
// then the calls of the next `seconds` are measured, the steady load of every user at once: the
// latencies of calls started while users still arrive are left out, as a warm-up's are, their errors not.
// Writes `measuring` to stderr when the measured seconds begin. Prints one JSON line: per call, its
// count, errors (the arrival's included, a few with when their call started) and latency percentiles;
// and this process's own CPU and event-loop delay (p99, max) while measuring, the delay being in every
// latency it measured.
//
//   node bench/flow.mjs <base url> <users> <seconds> [arrival seconds]
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const [baseUrl, usersText, secondsText, arrivalText = '1'] = process.argv.slice(2);
const users = Number(usersText);
const arrivalMs = Number(arrivalText) * 1000;
const startedAt = performance.now();
const measuredFrom = startedAt + arrivalMs;
const endAt = measuredFrom + Number(secondsText) * 1000;

const routes = [
  {
    srcChain: 'bob',
    dstChain: 'bitcoin',
    srcToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
    dstToken: '0x0000000000000000000000000000000000000000',
    recipient: (user) => ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged'][user % 2],
    amount: (swap) => String(200_000 + swap),
  },
  {
    srcChain: 'base',
    dstChain: 'ethereum',
    srcToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    dstToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    recipient: (user) => `0x${(user + 1).toString(16).padStart(40, '0')}`,
    amount: (swap) => String(50_000_000 + swap),
  },
];

/** Latencies (ms), errors and a few failed answers of each call. */
const calls = new Map();
function record(call, started, failure) {
  if (!calls.has(call)) calls.set(call, { latencies: [], errors: 0, examples: [] });
  const stats = calls.get(call);
  if (started >= measuredFrom) stats.latencies.push(performance.now() - started);
  if (failure === undefined) return;
  stats.errors++;
  // When it started tells a failure of the start-up, while users arrive, from one of the steady load.
  if (stats.examples.length < 3) stats.examples.push(`${failure} (started ${((started - startedAt) / 1000).toFixed(1)} s in)`);
}

// node:http, not fetch: 200 users for 15 s cost this process 5.4 to 5.5 s of CPU with fetch and
// stalled its event loop up to 81 to 84 ms, which the latencies it measured carried; 2.6 to 2.7 s
// and 27 to 47 ms with node:http (two runs each, alternating, against one server).
// A timeout makes the agent heed the server's `Keep-Alive: timeout=5` and close an idle socket a
// second before the server does (4.0 s against 6.0 s without, by hand), as fetch's pool does: without
// it a request sent on a socket the server is closing fails with "socket hang up".
const agent = new http.Agent({ keepAlive: true, timeout: 60_000 });

/** One request: the answer's status and body. */
function request(method, path, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${baseUrl}${path}`, { method, agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    // Whether the socket had served a request before tells a keep-alive race (the server closing an
    // idle socket as the request is sent on it) from a refused or dropped connection.
    outgoing.on('error', (error) => reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket })));
    outgoing.end(payload);
  });
}

/** One call: its answer's JSON, or undefined when it failed (recorded with it). */
async function call(name, method, path, body) {
  const started = performance.now();
  try {
    const { status, text } = await request(method, path, body);
    const ok = status >= 200 && status < 300;
    record(name, started, ok ? undefined : `${status} ${text.slice(0, 200)}`);
    return ok ? JSON.parse(text) : undefined;
  } catch (error) {
    const socket = error.reusedSocket ? 'a reused keep-alive socket' : 'a new socket';
    record(name, started, `${error}${error.code ? ` ${error.code}` : ''}, on ${socket}`);
    return undefined;
  }
}

let settled = 0;
async function user(index) {
  await sleep((index * arrivalMs) / users);
  for (let swap = 0; performance.now() < endAt; swap++) {
    const route = routes[(index + swap) % routes.length];
    const { recipient, amount, ...tokens } = route;
    const query = new URLSearchParams({
      ...tokens,
      amount: amount(index * 1000 + swap),
      recipient: recipient(index),
      refundAddress: refundOf(index),
    });
    const quote = await call('get-quote', 'GET', `/v4/get-quote?${query}`);
    const created = quote && (await call('create-order', 'POST', '/v4/create-order', quote));
    const order = created && Object.values(created)[0];
    // A user whose call failed tries again a moment later.
    if (!order) {
      await sleep(1000);
      continue;
    }
    await call('source-sent (sandbox)', 'POST', `/sandbox/orders/${order.order_id}/source-sent`, {});
    while (performance.now() < endAt) {
      await sleep(1000);
      const info = await call('get-order', 'GET', `/v4/get-order/${order.order_id}`);
      if (info && !('inProgress' in info.status)) {
        settled++;
        break;
      }
    }
  }
}

/** The refund address on the source chain: an EVM address of the user's own. */
const refundOf = (index) => `0x${(index + 0x100000).toString(16).padStart(40, '0')}`;

// This process's own stalls add to every latency it measures: the result says how long they were.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
let cpuAtStart;
// The bench starts its CPU meters at this line (bench/run.ts).
setTimeout(() => {
  loopDelay.enable();
  cpuAtStart = process.cpuUsage();
  process.stderr.write('measuring\n');
}, measuredFrom - performance.now());
await Promise.all(Array.from({ length: users }, (_, index) => user(index)));
loopDelay.disable();
const elapsedSeconds = (performance.now() - measuredFrom) / 1000;
const cpu = process.cpuUsage(cpuAtStart);

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
const result = {
  users,
  seconds: elapsedSeconds,
  // This process's CPU while it measured.
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  settled,
  loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
  calls: {},
};
for (const [name, stats] of calls) {
  const sorted = stats.latencies.sort((a, b) => a - b);
  result.calls[name] = {
    count: sorted.length,
    errors: stats.errors,
    perSecond: sorted.length / elapsedSeconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    examples: stats.examples,
  };
}
console.log(JSON.stringify(result));
