// Probe of the idle rows, in a process of its own: GET /health one request at a time, 10 ms after the
// last answer, for `warm-up seconds` unrecorded, then `seconds` recorded. The slowest answer is the
// longest stall of the target's event loop, give or take a round trip. Prints one JSON line: the
// latencies' percentiles and maximum, the answers other than 200, and this process's own event-loop
// delay (p99, max), which every latency it measured includes.
//
//   node bench/idle.mjs <base url> <warm-up seconds> <seconds>
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const [baseUrl, warmupText, secondsText] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET /health: its status, once the whole answer is read. */
function health() {
  return new Promise((resolve, reject) => {
    const outgoing = http.get(`${baseUrl}/health`, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
  });
}

async function probe(seconds, latencies) {
  let failures = 0;
  for (const endAt = performance.now() + seconds * 1000; performance.now() < endAt; ) {
    const started = performance.now();
    const status = await health().catch(() => 0);
    latencies?.push(performance.now() - started);
    if (status !== 200) failures++;
    await sleep(10);
  }
  return failures;
}

await probe(Number(warmupText));
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
const latencies = [];
const failures = await probe(Number(secondsText), latencies);
loopDelay.disable();
latencies.sort((a, b) => a - b);
const at = (share) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))];
console.log(
  JSON.stringify({
    requests: latencies.length,
    failures,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: latencies.at(-1),
    loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
  }),
);
