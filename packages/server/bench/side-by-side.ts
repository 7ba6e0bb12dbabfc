/**
 * `pnpm --filter @swap-gateway/server bench:side-by-side before dist`: two builds of the server
 * compared at the same moments, on one get-quote asked again. A build is a copy of `dist` in this
 * package's directory (it finds its configuration beside it): `cp -r dist before`, then the change
 * and its build.
 *
 * Both builds run as fresh embedded servers on the bench's configuration, pinned together to core 1
 * and loaded at once by two wrk (`-t1 -c10`) pinned to core 0, so that whatever the machine does
 * during a round it does to both; on these 2-core machines the speed of one build alone moved by 40%
 * between rounds of a few seconds, more than any change measured. Each round reads each server's
 * CPU time from /proc; after the rounds, both start again in the other order and run as many, so
 * that a build's place (up to 3% here) does not count for it. Prints each round, then the median
 * ratio of the second build to the first in each order and their geometric mean. In this set-up a
 * build made 3 µs a request slower read 7.5% (about 4.4 µs) slower.
 *
 * BENCH_ROUNDS per order (6), BENCH_SECONDS per round (6), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (10);
 * BENCH_NEW (unset): a parameter of bench/new-values.lua (`amount`, `recipient`, `amount+recipient`,
 * `affiliates`, `refundAddress`) to ask a value of it that no request asked before, every request, as the bench's
 * new-value rows do, instead of one quote again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { startProcess, type StartedProcess } from '@swap-gateway/test-support/processes';
import { quoteQuery, writeBenchConfig } from './config.js';
import { cpuMeter } from './cpu.js';
import { type LoadOptions, wrk } from './wrk.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const newParameter = process.env.BENCH_NEW;
const [serverCore, loadCore] = [1, 0];

const builds = process.argv.slice(2);
if (builds.length !== 2) throw new Error('give two builds: copies of dist in this package, e.g. `cp -r dist before`');
const work = mkdtempSync(join(tmpdir(), 'gateway-side-by-side-'));
const config = writeBenchConfig(work);

interface Measured {
  /** Requests answered in the round. */
  requests: number;
  /** CPU µs a request. */
  cpuUs: number;
}

const start = (build: string): Promise<StartedProcess> =>
  startProcess({
    command: 'taskset',
    args: (port) => [
      '-c',
      String(serverCore),
      process.execPath,
      join(resolve(build), 'main.js'),
      '--config',
      config,
      '--port',
      String(port),
      '--data-dir',
      mkdtempSync(join(work, 'data-')),
    ],
    env: { LOG_LEVEL: 'warn' },
    probePath: '/health',
  });

/** The script of load number `load` (each of a run's loads asks values of its own, 10^7 apart), when values are to be new. */
const newValues = (load: number): LoadOptions['script'] =>
  newParameter === undefined
    ? undefined
    : {
        path: fileURLToPath(new URL('./new-values.lua', import.meta.url)),
        args: [newParameter, String(100_000_000 + load * 10_000_000), '1'],
      };
let loads = 0;
const load = (url: string, loadSeconds: number) =>
  wrk(url, { connections, seconds: loadSeconds, threads: 1, cpu: loadCore, script: newValues(loads++) });

/** `rounds` rounds of both servers loaded at once, in the order given: each round's figures, by build. */
async function measure(order: string[]): Promise<Map<string, Measured[]>> {
  const servers: StartedProcess[] = [];
  try {
    for (const build of order) servers.push(await start(build));
    const urls = servers.map((server) => `${server.url}/v4/get-quote?${quoteQuery}`);
    await Promise.all(urls.map((url) => load(url, warmupSeconds)));
    const figures = new Map<string, Measured[]>(order.map((build) => [build, []]));
    for (let round = 0; round < rounds; round++) {
      const meters = servers.map((server) => cpuMeter(server.pid));
      const results = await Promise.all(urls.map((url) => load(url, seconds)));
      const line = order.map((build, index) => {
        const { requests, failures } = results[index]!;
        if (failures) throw new Error(`${build} answered ${failures} requests with an error: no comparison of its successes`);
        const cpuUs = (meters[index]!() * 1e6) / requests;
        figures.get(build)!.push({ requests, cpuUs });
        return `${build}: ${(requests / seconds).toFixed(0)} requests/s, ${cpuUs.toFixed(1)} µs of CPU a request`;
      });
      console.log(`round ${round + 1}: ${line.join(' | ')}`);
    }
    return figures;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

const [first, second] = builds as [string, string];
/** The median over the rounds of the second build's figure over the first's. */
const ratio = (figures: Map<string, Measured[]>, figure: keyof Measured) =>
  median(figures.get(second)!.map((measured, index) => measured[figure] / figures.get(first)![index]![figure]));
const halves = [await measure([first, second]), await measure([second, first])];
for (const figure of ['cpuUs', 'requests'] as const) {
  const [inOrder, swapped] = halves.map((figures) => ratio(figures, figure)) as [number, number];
  console.log(
    `${second} / ${first}, ${figure === 'cpuUs' ? 'CPU a request' : 'requests'}: ${inOrder.toFixed(3)} in order, ${swapped.toFixed(3)} swapped, ${Math.sqrt(inOrder * swapped).toFixed(3)} together`,
  );
}
