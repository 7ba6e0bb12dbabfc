/**
 * `pnpm bench:server`: get-quote, get-order and create-order under load against the gateway server
 * (embedded store; PostgreSQL with 1 and 2 worker processes), the Prism mock, a bare node:http
 * server answering fixed JSON, and Fastify alone answering one fixed get-quote answer, all in one
 * run and printed side by side with ratios.
 *
 * Every target is a process of its own, started as a user starts it (`node dist/main.js`, the mock's
 * CLI), one at a time; the load generator is wrk (Debian's package), another process. The bare
 * node:http row is also loaded with autocannon's CLI, so that each run shows whether the generator
 * caps the ceiling. The servers run the built-in sandbox configuration with the rate limit raised
 * out of the way (the bench measures the work, not the limiter), enough liquidity for the orders,
 * and responses checked against the document one in 100 (`checkResponses`, as a deployment that
 * samples runs); one more embedded server checks every response, as the sandbox does, on get-quote.
 * Before a get-quote or get-order row the target is warmed up for BENCH_WARMUP_SECONDS (its JIT
 * and pools; not counted), before the first round until it has answered BENCH_FIRST_WARMUP_REQUESTS,
 * and during a row the other targets are paused (SIGSTOP, then SIGCONT): an idle server still runs
 * its lifecycle passes and the mock its timers, which on 2 cores showed up in the measured target's
 * p99. The PostgreSQL targets have a database each in one cluster.
 * Each row also shows the CPU each side used (bench/cpu.ts), so that a row bound by the machine's
 * cores rather than by the target says so, and the target's CPU time per request, which depends
 * far less on what else the machine runs than requests per second do.
 *
 * Two rows are the load a gateway sees rather than one request asked again: get-quote with a new
 * amount and a new recipient every request while the sandbox's prices move every second, and the
 * order flow of many users swapping at once (bench/flow.mjs, a Node process of its own: get-quote,
 * create-order, the source transaction sent, get-order once a second until settled), on the embedded
 * store, one holding 20,000 unpaid orders, and PostgreSQL with 1 and 2 workers.
 *
 * BENCH_SECONDS per row (default 5), BENCH_WARMUP_SECONDS (2), BENCH_FIRST_WARMUP_REQUESTS (20000),
 * BENCH_CONNECTIONS (10), BENCH_THREADS of wrk (1),
 * BENCH_ROUNDS of the bare, get-quote and get-order rows (3),
 * BENCH_ORDER_QUOTES quotes prepared for each create-order row (12000), BENCH_ORDERS_READ orders each
 * get-order row reads in turn (200), BENCH_FLOW_USERS users of the flow rows (200), BENCH_FLOW_SECONDS (20),
 * BENCH_FLOW_ARRIVAL_SECONDS over which they arrive (5). The figures are also written as JSON to
 * bench/results/ (BENCH_JSON names another file), so that two builds can be compared.
 */
import { execFileSync, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findPostgres, startPostgres, type PostgresCluster } from '@swap-gateway/test-support/postgres';
import { type BenchConfigOptions, checkEvery, quoteQuery, writeBenchConfig } from './config.js';
import { cpuMeter, machineCpuSeconds, reapedChildrenCpuSeconds } from './cpu.js';
import { startProcess, type StartedProcess } from '@swap-gateway/test-support/processes';
import { wrk, type LoadResult } from './wrk.js';
import { openStore } from '../src/store/open-store.js';
import { seedOpenOrders } from '../test/fixtures/open-orders.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/**
 * Requests each row's target answers in its warm-up before the first round, in slices of
 * `warmupSeconds`: after one slice, the Prism mock's first get-quote round read below both of its
 * later ones in all 21 runs of 27 to 29 November, by 4 to 50% (bench/README.md, "Rounds").
 */
const firstWarmupRequests = Number(process.env.BENCH_FIRST_WARMUP_REQUESTS ?? 20_000);
/** The longest that first warm-up lasts, so that a target answering nothing does not hold the run. */
const maxFirstWarmupSeconds = 60;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** One wrk thread: on 2 cores a second one contends with the target (bench/README.md, "One generator thread"). */
const threads = Number(process.env.BENCH_THREADS ?? 1);
const orderQuotes = Number(process.env.BENCH_ORDER_QUOTES ?? 12000);
const ordersRead = Number(process.env.BENCH_ORDERS_READ ?? 200);
const flowUsers = Number(process.env.BENCH_FLOW_USERS ?? 200);
const flowSeconds = Number(process.env.BENCH_FLOW_SECONDS ?? 20);
/**
 * Over how long the flow's users arrive, one after another: the time one swap takes here (about 5 s:
 * the source transaction confirms after 2 s, an offramp's payout 2 s more, get-order once a second),
 * so that new users arrive at the rate swaps end, the steady load of that many users. Arriving within
 * one second, they asked five times that rate of create-orders at the start, and stayed in step
 * (bench/README.md).
 */
const flowArrivalSeconds = Number(process.env.BENCH_FLOW_ARRIVAL_SECONDS ?? 5);
/**
 * Rounds of the wrk rows of the bare server, get-quote and get-order, one row after the other in each
 * round; the table shows the median of each figure over the rounds (bench/README.md, "Rounds").
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** Rounds a run can hold: each round's new values start 10^7 after the last one's (`newValues` in main). */
const maxRounds = 10;
if (!Number.isInteger(rounds) || rounds < 1 || rounds > maxRounds)
  throw new Error(`BENCH_ROUNDS must be a whole number from 1 to ${maxRounds}, not ${process.env.BENCH_ROUNDS}`);

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const serverMain = here('../dist/main.js');
const mockCli = here('../../mock/dist/cli.js');
const autocannonCli = here('../node_modules/autocannon/autocannon.js');

/** A wrk Lua script, its arguments, and the threads wrk runs it on. */
interface Script {
  path: string;
  args: string[];
  threads: number;
}

interface Row extends LoadResult {
  target: string;
  operation: 'get-quote' | 'get-order' | 'create-order' | 'fixed JSON' | `flow: ${string}` | typeof idleProbe;
  generator: string;
  /** CPU use during the row, in % of one core. */
  cpu?: { target: number; postgres?: number; generator: number; machine: number };
  /** A few of the failed calls, as answered. */
  failureExamples?: string[];
  /** The slowest answer (the idle rows: the longest stall of the target's event loop, give or take a round trip). */
  maxMs?: number;
  /** On a row measured in rounds: the p99 of each round, in their order. */
  p99RoundsMs?: number[];
  /** On a row measured in rounds: the median of its rounds' target CPU µs per request. */
  cpuUsPerRequest?: number;
}

/** The median (of an even count, the mean of the middle two); NaN when any value is, so that a figure wrk did not print in one round fails its target. */
function median(values: number[]): number {
  if (values.some(Number.isNaN)) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

/**
 * A row measured in rounds (every round's figures from load()): each figure, the target's CPU per
 * request included, the median of its rounds, every round's p99 beside it, and the failures of all
 * rounds, since a round with a failed request meets nothing.
 */
function medianOfRounds(measured: Row[]): Row {
  const medianOf = (figure: (row: Row) => number) => median(measured.map(figure));
  const [first] = measured as [Row, ...Row[]];
  return {
    target: first.target,
    operation: first.operation,
    generator: first.generator,
    requestsPerSecond: medianOf((row) => row.requestsPerSecond),
    p50Ms: medianOf((row) => row.p50Ms),
    p99Ms: medianOf((row) => row.p99Ms),
    requests: medianOf((row) => row.requests),
    failures: measured.reduce((sum, row) => sum + row.failures, 0),
    cpu: {
      target: medianOf((row) => row.cpu!.target),
      ...(first.cpu!.postgres === undefined ? {} : { postgres: medianOf((row) => row.cpu!.postgres!) }),
      generator: medianOf((row) => row.cpu!.generator),
      machine: medianOf((row) => row.cpu!.machine),
    },
    p99RoundsMs: measured.map((row) => row.p99Ms),
    cpuUsPerRequest: medianOf(cpuUsPerRequest),
  };
}

function checkTools(): void {
  try {
    execFileSync('wrk', ['-v'], { stdio: 'ignore' });
  } catch (error) {
    // wrk -v exits 1 after printing its version; only a missing binary is a problem.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error("the bench needs wrk (Debian's package; scripts/system-deps.sh installs it)");
  }
  for (const [file, build] of [
    [serverMain, '@swap-gateway/server'],
    [mockCli, '@swap-gateway/mock'],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${file} is missing: pnpm turbo run build --filter ${build}`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'gateway-bench-'));

const benchConfig = (options?: BenchConfigOptions) => writeBenchConfig(work, options);

/** What a row watches the CPU use of: the target's processes, and PostgreSQL's when it uses it. */
interface Watched {
  target: number;
  postgres?: number;
}

async function load(target: string, operation: Row['operation'], url: string, watched: Watched, script?: Script): Promise<Row> {
  const meters = { target: cpuMeter(watched.target), postgres: watched.postgres === undefined ? undefined : cpuMeter(watched.postgres) };
  const start = { generator: reapedChildrenCpuSeconds(), machine: machineCpuSeconds(), at: performance.now() };
  const result = await wrk(url, { connections, seconds, threads: script?.threads ?? threads, ...(script ? { script } : {}) });
  const share = (cpuSeconds: number) => (cpuSeconds / ((performance.now() - start.at) / 1000)) * 100;
  const machine = machineCpuSeconds();
  const cpu = {
    target: share(meters.target()),
    ...(meters.postgres ? { postgres: share(meters.postgres()) } : {}),
    generator: share(reapedChildrenCpuSeconds() - start.generator),
    machine: ((machine.busy - start.machine.busy) / (machine.total - start.machine.total)) * cpus().length * 100,
  };
  return { target, operation, generator: 'wrk', ...result, cpu };
}

/** autocannon's CLI in its own process, on the bare row only: does the generator cap the ceiling? */
async function autocannon(url: string): Promise<Row> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [autocannonCli, '--json', '-c', String(connections), '-d', String(seconds), url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    target: 'bare node:http',
    operation: 'fixed JSON',
    generator: 'autocannon CLI',
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  };
}

/**
 * The order flow of many users swapping at once (bench/flow.mjs, its own process): one row per call,
 * the target's CPU per request over all of them. The CPU meters start when the generator says it
 * measures (its users arrived), so that they cover the window of its figures.
 */
async function flowRows(target: string, url: string, watched: Watched): Promise<Row[]> {
  const generator = spawn(process.execPath, [here('./flow.mjs'), url, String(flowUsers), String(flowSeconds), String(flowArrivalSeconds)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timeout = setTimeout(() => generator.kill(), (flowArrivalSeconds + flowSeconds + 60) * 1000);
  let stdout = '';
  let stderr = '';
  let start:
    | { meters: { target: () => number; postgres?: () => number }; machine: ReturnType<typeof machineCpuSeconds>; at: number }
    | undefined;
  generator.stdout.on('data', (chunk) => (stdout += chunk));
  generator.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (start || !stderr.includes('measuring\n')) return;
    start = {
      meters: { target: cpuMeter(watched.target), ...(watched.postgres === undefined ? {} : { postgres: cpuMeter(watched.postgres) }) },
      machine: machineCpuSeconds(),
      at: performance.now(),
    };
  });
  const status = await new Promise<number | null>((resolve) => generator.on('close', resolve));
  clearTimeout(timeout);
  const measured = start;
  if (status !== 0 || !measured) throw new Error(`${target}: flow.mjs ended with ${status}: ${stderr}`);
  const result = JSON.parse(stdout) as {
    seconds: number;
    cpuSeconds: number;
    loopDelayMs: { p99: number; max: number };
    calls: Record<string, { count: number; errors: number; perSecond: number; p50Ms: number; p99Ms: number; examples: string[] }>;
  };
  const share = (cpuSeconds: number) => (cpuSeconds / ((performance.now() - measured.at) / 1000)) * 100;
  const machine = machineCpuSeconds();
  const cpu = {
    target: share(measured.meters.target()),
    ...(measured.meters.postgres ? { postgres: share(measured.meters.postgres()) } : {}),
    generator: (result.cpuSeconds / result.seconds) * 100,
    machine: ((machine.busy - measured.machine.busy) / (machine.total - measured.machine.total)) * cpus().length * 100,
  };
  const all = Object.values(result.calls).reduce((sum, call) => sum + call.perSecond, 0);
  return Object.entries(result.calls).map(([call, figures]) => ({
    target,
    operation: `flow: ${call}`,
    // The generator's own stalls are in every latency it measured: shown beside them.
    generator: `flow.mjs, ${flowUsers} users (its loop delay p99 ${result.loopDelayMs.p99.toFixed(0)}, max ${result.loopDelayMs.max.toFixed(0)} ms)`,
    requestsPerSecond: figures.perSecond,
    p50Ms: figures.p50Ms,
    p99Ms: figures.p99Ms,
    failures: figures.errors,
    requests: figures.count,
    // The target's CPU is shared over every call of the flow: each row shows it per request of all of them.
    cpu: { ...cpu, target: (cpu.target * figures.perSecond) / all },
    ...(figures.examples.length ? { failureExamples: figures.examples } : {}),
  }));
}

/** Orders to read back in the get-order rows: a file of their ids, one a line. */
async function someOrders(target: string, url: string): Promise<string> {
  const ids: string[] = [];
  for (let count = 0; count < ordersRead; count++) {
    const quote = await (await fetch(`${url}/v4/get-quote?${quoteQuery}`)).json();
    const created = (await (
      await fetch(`${url}/v4/create-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(quote),
      })
    ).json()) as { onramp?: { order_id: string } };
    if (!created.onramp) throw new Error(`${target}: create-order failed: ${JSON.stringify(created)}`);
    ids.push(created.onramp.order_id);
  }
  return orderIdsFile(target, ids);
}

function orderIdsFile(target: string, ids: string[]): string {
  const file = join(work, `order-ids-${target.replace(/\W+/g, '-')}.txt`);
  writeFileSync(file, ids.join('\n'));
  return file;
}

/** create-order with fresh quotes, each used once. */
async function createOrderRow(target: string, url: string, watched: Watched): Promise<Row> {
  const quotesFile = join(work, 'quotes.jsonl');
  writeFileSync(quotesFile, (await fetchQuotes(url, orderQuotes)).join('\n'));
  return load(target, 'create-order', url, watched, { path: here('./create-order.lua'), args: [quotesFile], threads: 1 });
}

async function fetchQuotes(url: string, count: number): Promise<string[]> {
  const quotes: string[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (quotes.length < count) quotes.push(await (await fetch(`${url}/v4/get-quote?${quoteQuery}`)).text());
    }),
  );
  return quotes.slice(0, count);
}

const checkingEveryResponse = 'server, embedded, every response checked';
const everyAmountNew = 'server, embedded, a new amount every request';
const everyWalletNew = 'server, embedded, a new recipient every request';
const everyPlanNew = 'server, embedded, a new affiliate every request';
const movingMarket = 'server, embedded, prices moving every second, a new amount and recipient every request';
const manyOpen = 'server, embedded, 20,000 unpaid orders open';
const fastifyAlone = 'Fastify alone, a fixed answer';

/** CPU µs a call of the quote service alone (bench/quote-alone.mjs): the median and every round's. */
type QuoteAlone = Record<'askedAgain' | 'newAmount', { medianUs: number; roundsUs: number[] }>;

/** The quote's own share of a get-quote, without HTTP, in a process of its own on the embedded server's configuration. */
async function quoteAlone(config: string): Promise<QuoteAlone> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    here('./quote-alone.mjs'),
    config,
    quoteQuery.toString(),
    String(rounds),
  ]);
  return JSON.parse(stdout) as QuoteAlone;
}
/** The idle rows' call: one request at a time, 10 ms apart, so that an answer waits only on the target's own event loop. */
const idleProbe = 'idle: GET /health every 10 ms';
const idleSeconds = 10;

/**
 * A server's event loop while nobody loads it (its lifecycle passes run every second): /health asked
 * one request at a time, 10 ms apart, for `idleSeconds`; the slowest answer is its longest stall.
 * The first seconds, which open the probe's connection while the server resumes from SIGSTOP, are a
 * warm-up of `warmupSeconds`, as every wrk row has: by hand, a probe's first request took 70 to 100
 * ms on the plain server and on the one with 20,000 open orders alike, the next ones at most 21 ms.
 */
async function idleRow(target: string, url: string): Promise<Row> {
  const { stdout } = await promisify(execFile)(process.execPath, [here('./idle.mjs'), url, String(warmupSeconds), String(idleSeconds)], {
    timeout: (warmupSeconds + idleSeconds + 60) * 1000,
  });
  const result = JSON.parse(stdout) as {
    requests: number;
    failures: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
    loopDelayMs: { p99: number; max: number };
  };
  return {
    target,
    operation: idleProbe,
    // The probe's own stalls are in every latency it measured: shown beside them.
    generator: `idle.mjs, one at a time (its loop delay max ${result.loopDelayMs.max.toFixed(1)} ms)`,
    requestsPerSecond: result.requests / idleSeconds,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    maxMs: result.maxMs,
    failures: result.failures,
    requests: result.requests,
  };
}

/** A data directory holding `count` unpaid orders, not due before they expire (test/fixtures/open-orders.ts). */
async function dataDirWithOpenOrders(count: number): Promise<string> {
  const dataDir = join(work, 'data-open-orders');
  const store = await openStore({ dataDir });
  try {
    // Due a day after they were written, so that no row of the run, however many rounds it holds,
    // measures the lifecycle expiring them.
    await seedOpenOrders(store.db, count, 24 * 3600);
  } finally {
    await store.close();
  }
  return dataDir;
}

const startServer = (extra: string[], env: NodeJS.ProcessEnv, config: string) =>
  startProcess({
    command: process.execPath,
    args: (port) => [serverMain, '--config', config, '--port', String(port), ...extra],
    env: { LOG_LEVEL: 'warn', ...env },
    probePath: '/health',
  });

/** The rows a target is measured on (the idle rows: the two embedded servers). */
type Measured = 'get-quote' | 'get-order' | 'flow' | 'create-order';

interface Target {
  name: string;
  process: StartedProcess;
  /** What get-order reads: a file of order ids, one a line. */
  ordersFile: string;
  watched: Watched;
  measured: readonly Measured[];
}

const everyRow: readonly Measured[] = ['get-quote', 'get-order', 'flow', 'create-order'];

/** The commit the bench measures, and whether the working tree differs from it. */
function build(): string {
  const git = (args: string[]) => execFileSync('git', args, { cwd: here('.'), encoding: 'utf8' }).trim();
  try {
    return `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain']) ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/**
 * Whether the kernel schedules the processes of each session as a group (autogroup). With it on and
 * both cores busy (2 workers, PostgreSQL and wrk), a runnable PostgreSQL backend was seen waiting
 * up to 1.5 s for a core: bench/README.md has the measurements.
 */
function groupScheduling(): string {
  const file = '/proc/sys/kernel/sched_autogroup_enabled';
  if (!existsSync(file)) return 'Kernel autogroup: not in this kernel.';
  const on = readFileSync(file, 'utf8').trim() === '1';
  return `Kernel autogroup (${file}): ${on ? 'on, so PostgreSQL tails under saturated cores can reach seconds (bench/README.md)' : 'off'}.`;
}

const loadAtStart = loadavg()[0]!;

/**
 * Every target runs for the whole bench (an idle one costs nothing), so that the rows compared
 * with each other are measured one right after the other: the machine's load drifts over minutes.
 */
async function main(): Promise<void> {
  checkTools();
  const config = benchConfig();
  const notes: string[] = [];
  const processes: StartedProcess[] = [];
  const started = async (start: Promise<StartedProcess>) => {
    const target = await start;
    processes.push(target);
    return target;
  };
  let cluster: PostgresCluster | undefined;
  try {
    const bare = await started(
      startProcess({ command: process.execPath, args: (port) => [here('./bare-server.mjs'), '--port', String(port)] }),
    );
    const mock = await started(
      startProcess({ command: process.execPath, args: (port) => [mockCli, '--port', String(port)], probePath: '/v4/get-routes' }),
    );
    const targets: Target[] = [
      // The mock answers every order id with its example: ids it does not know cost it the same.
      {
        name: 'Prism mock',
        process: mock,
        ordersFile: orderIdsFile(
          'Prism mock',
          Array.from({ length: ordersRead }, () => randomUUID()),
        ),
        watched: { target: mock.pid },
        measured: ['get-quote', 'get-order'],
      },
    ];
    const server = async (
      name: string,
      extra: string[],
      env: NodeJS.ProcessEnv,
      postgres?: PostgresCluster,
      options: { config?: string; measured?: readonly Measured[] } = {},
    ) => {
      const running = await started(startServer(extra, env, options.config ?? config));
      const watched = { target: running.pid, ...(postgres ? { postgres: postgres.pid() } : {}) };
      const measured = options.measured ?? everyRow;
      targets.push({
        name,
        process: running,
        ordersFile: measured.includes('get-order') ? await someOrders(name, running.url) : '',
        watched,
        measured,
      });
    };
    await server('server, embedded', ['--data-dir', join(work, 'data')], {});
    // The framework's own cost, on the bytes the server answers: one of its get-quote answers, fixed.
    const answerFile = join(work, 'quote-answer.json');
    const embedded = targets.find((target) => target.name === 'server, embedded')!;
    writeFileSync(answerFile, await (await fetch(`${embedded.process.url}/v4/get-quote?${quoteQuery}`)).text());
    const fastify = await started(
      startProcess({
        command: process.execPath,
        args: (port) => [here('./fastify-server.mjs'), '--answer', answerFile, '--port', String(port)],
        probePath: `/v4/get-quote?${quoteQuery}`,
      }),
    );
    // The open orders a day of ordinary traffic leaves while they wait for their payment.
    await server(manyOpen, ['--data-dir', await dataDirWithOpenOrders(20_000)], {});
    await server(checkingEveryResponse, ['--data-dir', join(work, 'data-checking')], {}, undefined, {
      config: benchConfig({ checkResponses: { every: 1 } }),
      measured: ['get-quote'],
    });
    // Each price a random step of at most 0.1% every second, as a market moves.
    await server(movingMarket, ['--data-dir', join(work, 'data-moving')], {}, undefined, {
      config: benchConfig({ priceWalk: { intervalSeconds: 1, maxStepBps: 10, maxDeviationBps: 500 } }),
      measured: ['get-quote'],
    });
    const binaries = findPostgres();
    if ('missing' in binaries) {
      notes.push(`PostgreSQL rows skipped: ${binaries.missing}`);
    } else {
      cluster = await startPostgres(binaries);
      // On one machine, a server reaches PostgreSQL over its Unix socket, as Debian's clients do by default.
      // A database each, so that any of them can be paused while another is measured. The API's rows
      // run a deployment's configuration; the flow sends its source transactions through the
      // sandbox, so it runs on servers of its own with the sandbox on, as a staging deployment.
      const deployment = { config: benchConfig({ deployment: true }), measured: ['get-quote', 'get-order', 'create-order'] } as const;
      const staging = { measured: ['flow'] } as const;
      for (const [workers, database] of [
        ['1 worker', 'one_worker'],
        ['2 workers', 'two_workers'],
      ] as const) {
        const extra = workers === '1 worker' ? [] : ['--workers', '2'];
        await server(`server, PostgreSQL, ${workers}`, extra, { DATABASE_URL: cluster.createDatabase(database) }, cluster, deployment);
        await server(
          `server, PostgreSQL, ${workers}, sandbox on`,
          extra,
          { DATABASE_URL: cluster.createDatabase(`${database}_sandbox`) },
          cluster,
          staging,
        );
      }
    }

    const everyTarget: Array<{ process: StartedProcess; watched: Watched }> = [
      { process: bare, watched: { target: bare.pid } },
      { process: fastify, watched: { target: fastify.pid } },
      ...targets,
    ];
    /** Measures with every other target paused (the PostgreSQL targets have a database each: no paused one holds a lock the measured one waits for). */
    const alone = <T>(measured: { process: StartedProcess; watched: Watched }, measure: () => Promise<T>) =>
      whilePaused(
        everyTarget.filter((other) => other.process !== measured.process).map((other) => other.process.pid),
        measure,
      );
    /**
     * A row's warm-up: `warmupSeconds` of its load; in the first round, slices of it until the target
     * has answered `firstWarmupRequests` (or for `maxFirstWarmupSeconds`), since the mock reaches its
     * pace only after thousands of requests (bench/README.md, "Rounds"). `script` gives each slice's.
     */
    const warmedUp = async (round: number, url: string, script?: (slice: number) => Script) => {
      if (warmupSeconds <= 0) return url;
      const until = performance.now() + maxFirstWarmupSeconds * 1000;
      let answered = 0;
      let slice = 0;
      do {
        const sliceScript = script?.(slice++);
        const { requests } = await wrk(url, {
          connections,
          seconds: warmupSeconds,
          threads: sliceScript?.threads ?? threads,
          script: sliceScript,
        });
        answered += requests;
      } while (round === 0 && answered < firstWarmupRequests && performance.now() < until);
      return url;
    };
    // Values from 10^8 in the warm-ups (each slice 3 × 10^5 on), from 2 × 10^8 in the rows (1 and 2
    // BTC as amounts), each round 10^7 further on: at most 10^7 requests a row, and with `maxRounds`,
    // no row asks the values of another or of a warm-up.
    const newValues = (parameter: string, run: 'warm-up' | 'row', round: number, slice = 0): Script => ({
      path: here('./new-values.lua'),
      args: [parameter, String((run === 'warm-up' ? 100_000_000 + slice * 300_000 : 200_000_000) + round * 10_000_000), String(threads)],
      threads,
    });
    const newValuesRow = (target: Target, name: string, parameter: string) => (round: number) =>
      alone(target, async () => {
        const url = `${target.process.url}/v4/get-quote?${quoteQuery}`;
        await warmedUp(round, url, (slice) => newValues(parameter, 'warm-up', round, slice));
        return load(name, 'get-quote', url, target.watched, newValues(parameter, 'row', round));
      });
    /** The rows measured in every round, in the order of the table. */
    const measuredInRounds: Array<(round: number) => Promise<Row>> = [
      (round) =>
        alone(everyTarget[0]!, async () => load('bare node:http', 'fixed JSON', await warmedUp(round, bare.url), { target: bare.pid })),
      (round) =>
        alone(everyTarget[1]!, async () =>
          load(fastifyAlone, 'get-quote', await warmedUp(round, `${fastify.url}/v4/get-quote?${quoteQuery}`), { target: fastify.pid }),
        ),
    ];
    for (const target of targets.filter((target) => target.measured.includes('get-quote'))) {
      if (target.name === movingMarket) {
        measuredInRounds.push(newValuesRow(target, target.name, 'amount+recipient'));
        continue;
      }
      const url = `${target.process.url}/v4/get-quote?${quoteQuery}`;
      measuredInRounds.push((round) =>
        alone(target, async () => load(target.name, 'get-quote', await warmedUp(round, url), target.watched)),
      );
      if (target.name === 'server, embedded') {
        measuredInRounds.push(
          newValuesRow(target, everyAmountNew, 'amount'),
          newValuesRow(target, everyWalletNew, 'recipient'),
          newValuesRow(target, everyPlanNew, 'affiliates'),
        );
      }
    }
    for (const target of targets.filter((target) => target.measured.includes('get-order'))) {
      const url = `${target.process.url}/v4/get-order/`;
      const ordersById = { path: here('./orders-by-id.lua'), args: [target.ordersFile, String(threads)], threads };
      measuredInRounds.push((round) =>
        alone(target, async () => load(target.name, 'get-order', await warmedUp(round, url, () => ordersById), target.watched, ordersById)),
      );
    }
    // Once, before the rounds, on the bare server warmed up as its rows are: does the generator cap the ceiling?
    const generatorCheck = await alone(everyTarget[0]!, async () => autocannon(await warmedUp(0, bare.url)));
    const quoteShare = await whilePaused(
      everyTarget.map((target) => target.process.pid),
      () => quoteAlone(config),
    );
    const roundRows: Row[][] = [];
    for (let round = 0; round < rounds; round++) {
      const measured: Row[] = [];
      for (const measure of measuredInRounds) measured.push(await measure(round));
      roundRows.push(measured);
    }
    const [bareRow, ...others] = measuredInRounds.map((_, index) => medianOfRounds(roundRows.map((measured) => measured[index]!)));
    const rows: Row[] = [bareRow!, generatorCheck, ...others];
    for (const target of targets.filter((target) => target.name === 'server, embedded' || target.name === manyOpen))
      rows.push(await alone(target, () => idleRow(target.name, target.process.url)));
    // Before the create-order rows, which leave thousands of orders open.
    for (const target of targets.filter((target) => target.measured.includes('flow')))
      rows.push(...(await alone(target, () => flowRows(target.name, target.process.url, target.watched))));
    for (const target of targets.filter((target) => target.measured.includes('create-order')))
      rows.push(await alone(target, () => createOrderRow(target.name, target.process.url, target.watched)));
    writeResults(rows, roundRows, notes, quoteShare, report(rows, roundRows, notes, quoteShare));
  } finally {
    await Promise.all(processes.map((target) => target.stop()));
    await cluster?.stop();
  }
}

/** A process and its descendants (the mock's Prism, the workers of `--workers 2`), from /proc. */
function processTree(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [pid];
  }
  return [pid, ...children.flatMap(processTree)];
}

/** Runs `measure` with the processes of `pids` (and theirs) stopped, and resumes them whatever happens. */
async function whilePaused<T>(pids: number[], measure: () => Promise<T>): Promise<T> {
  const paused = pids.flatMap(processTree);
  for (const pid of paused) process.kill(pid, 'SIGSTOP');
  try {
    return await measure();
  } finally {
    for (const pid of paused) process.kill(pid, 'SIGCONT');
  }
}

/** The target's CPU time per request in µs: its share of a core over the requests it answered each second, or the median of its rounds'. */
function cpuUsPerRequest(row: Row): number {
  if (row.cpuUsPerRequest !== undefined) return row.cpuUsPerRequest;
  return row.cpu && row.requestsPerSecond > 0 ? ((row.cpu.target / 100) * 1e6) / row.requestsPerSecond : Number.NaN;
}

/** CPU use during the row in % of one core (the machine's out of 100 × cores), '-' where not watched. */
function cpuShares(row: Row): string {
  if (!row.cpu) return '';
  const { target, postgres, generator, machine } = row.cpu;
  return [target, postgres, generator, machine].map((share) => (share === undefined ? '-' : share.toFixed(0))).join(' / ');
}

/** Whether each target was met in this run, with its sentence. */
type Verdict = [string, boolean];

function report(rows: Row[], roundRows: Row[][], notes: string[], quoteShare: QuoteAlone): { targets: Verdict[]; beyond: Verdict[] } {
  const same = (target: string, operation: string, generator: string) => (row: Row) =>
    row.target === target && row.operation === operation && row.generator === generator;
  const find = (target: string, operation: string, generator = 'wrk') => rows.find(same(target, operation, generator));
  const bare = find('bare node:http', 'fixed JSON')!;
  const ceiling = bare.requestsPerSecond;
  const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
  /**
   * `row`'s requests/s over `base`'s: of rows measured in rounds, the median of each round's ratio,
   * so that a ratio compares two rows measured minutes apart at most, as a run of one round does.
   */
  const ratioOf = (row: Row, base: Row) => {
    const pairs = roundRows.map((measured) => [
      measured.find(same(row.target, row.operation, row.generator)),
      measured.find(same(base.target, base.operation, base.generator)),
    ]);
    return pairs.every(([a, b]) => a && b)
      ? median(pairs.map(([a, b]) => a!.requestsPerSecond / b!.requestsPerSecond))
      : row.requestsPerSecond / base.requestsPerSecond;
  };
  /** Each round's p99 of a row measured in more than one, in their order. */
  const p99OfEachRound = (row: Row) =>
    row.p99RoundsMs && row.p99RoundsMs.length > 1 ? row.p99RoundsMs.map((value) => fixed(value, 2)).join(', ') : '';
  console.log(
    `\nwrk -t${threads}${threads === 1 ? '' : ' (-t1 for create-order)'} -c${connections}, ${seconds} s per row, ${rounds === 1 ? 'one round' : `${rounds} rounds`} of the bare, get-quote and get-order rows, loopback, Node ${process.version}, ${cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end, build ${build()}\n`,
  );
  console.log(
    `CPU: % of one core during the row (target's processes, PostgreSQL's, wrk's; the machine's busy share of ${cpus().length * 100}), from /proc; µs/request: the target's CPU time per request.`,
  );
  if (rounds > 1)
    console.log(
      `Rounds: the bare, get-quote and get-order rows were measured ${rounds} times, each round every row one after the other. Each figure of these rows is the median of its rounds (CPU µs/request the median of each round's), every round's p99 is in brackets in the order measured, failures count over all rounds, and a ratio is the median of each round's ratio. autocannon's check ran once, before the rounds.`,
    );
  console.log(
    `Servers: the sandbox configuration, rate limit out of the way, responses checked one in ${checkEvery} (checkResponses.every); "${checkingEveryResponse}" checks every one, as the sandbox does. On PostgreSQL the get-quote, get-order and create-order rows run with the sandbox off, as a deployment does, and the flow on servers with it on ("sandbox on"), which read the sandbox's state before every request (bench/README.md).`,
  );
  console.log(
    `PostgreSQL: Debian's, on this machine (fsync off), reached over its Unix socket. Latency: wrk adds to its figures the requests a stall held back (its correction for coordinated omission), so one stall of tens of milliseconds shows in p99. ${groupScheduling()}`,
  );
  console.log(
    `get-quote asks for one quote again and again (a wallet refreshing it): the server answers it from the quotes it keeps by their parameters while prices stay (src/quote/memo.ts), with a new id, expiry and seal each time. "${everyAmountNew}" asks for an amount no request asked for before (bench/new-values.lua), so every quote is computed (a user trying amounts); "${everyWalletNew}" asks with a recipient no request asked with before (other users of one wallet on one route); "${everyPlanNew}" asks with an affiliate address no request asked with before (a case no wallet makes: an integrator's affiliate and slippage stay the same), held to the p99 of every get-quote row but to no ratio; "${movingMarket}" asks with a new amount and recipient while every price steps each second. get-order reads ${ordersRead} orders in turn (bench/orders-by-id.lua), so requests arriving together ask for different orders. "${manyOpen}" holds 20,000 unpaid orders written into its store before it starts; its idle row and the embedded server's ask /health one request at a time, 10 ms apart, for ${idleSeconds} s while the lifecycle passes every second: the slowest answer is the longest stall of the event loop.\n`,
  );
  console.log(
    '| target | operation | generator | requests/s | p50 ms | p99 ms | × Prism mock | % of bare node:http | non-2xx/errors | CPU % target / PostgreSQL / wrk / machine | target CPU µs/request |',
  );
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const mock = find('Prism mock', row.operation);
    const timesMock = mock && row.target !== 'Prism mock' ? `${fixed(ratioOf(row, mock), 1)}×` : '';
    const eachRound = p99OfEachRound(row);
    console.log(
      `| ${row.target} | ${row.operation} | ${row.generator} | ${fixed(row.requestsPerSecond)} | ${fixed(row.p50Ms, 2)} | ${fixed(row.p99Ms, 2)}${eachRound ? ` (${eachRound})` : ''} | ${timesMock} | ${fixed(ratioOf(row, bare) * 100, 1)}% | ${row.failures} | ${cpuShares(row)} | ${row.cpu ? fixed(cpuUsPerRequest(row)) : ''} |`,
    );
  }
  const orders = rows.filter((row) => row.operation === 'create-order');
  if (orders.length) {
    console.log('\ncreate-order: orders acknowledged with 201 per second (each quote used once)');
    for (const row of orders)
      console.log(
        `- ${row.target}: ${fixed((row.requests - row.failures) / seconds)} orders/s (p50 ${fixed(row.p50Ms, 2)} ms, p99 ${fixed(row.p99Ms, 2)} ms, ${row.failures} not 201)`,
      );
  }
  const generators = find('bare node:http', 'fixed JSON', 'autocannon CLI');
  if (generators) console.log(`\nautocannon reports latency in whole milliseconds.`);
  if (generators)
    console.log(
      `Generator check on the bare row: wrk ${fixed(ceiling)} req/s, autocannon CLI ${fixed(generators.requestsPerSecond)} req/s (wrk / autocannon = ${fixed(ceiling / generators.requestsPerSecond, 2)}).`,
    );
  const ratio = (target: string, operation: string, base: string) => {
    const row = find(target, operation);
    const other = find(base, operation);
    return row && other ? ratioOf(row, other) : Number.NaN;
  };
  /** `target`'s requests/s at least `floor` times the mock's. */
  const timesTheMock = (label: string, target: string, operation: string, floor: number): [string, boolean] => {
    const times = ratio(target, operation, 'Prism mock');
    return [`${label}: ${fixed(times, 1)}× the mock (target ≥ ${floor}×)`, times >= floor];
  };
  /** PostgreSQL with 2 workers answers more than with 1. */
  const twoWorkersOverOne = (label: string, operation: string): [string, boolean] => {
    const times = ratio('server, PostgreSQL, 2 workers', operation, 'server, PostgreSQL, 1 worker');
    return [`${label}, PostgreSQL 2 workers / 1 worker: ${fixed(times, 2)}× (target > 1×)`, times > 1];
  };
  const quoteTargets = (target: string, label: string): Array<[string, boolean]> => {
    const row = find(target, 'get-quote');
    const share = row ? ratioOf(row, bare) : 0;
    return [
      timesTheMock(`get-quote, ${label}`, target, 'get-quote', 10),
      [`get-quote, ${label}: ${fixed(share * 100, 1)}% of bare node:http (target ≥ 25%)`, share >= 0.25],
    ];
  };
  const checks: Array<[string, boolean]> = [
    ...quoteTargets('server, embedded', 'embedded, one quote asked again'),
    ...rows
      .filter((row) => row.target.startsWith('server') && row.operation === 'get-order')
      .map((row) => timesTheMock(`get-order, ${row.target}`, row.target, 'get-order', 5)),
    twoWorkersOverOne('get-quote (one quote asked again)', 'get-quote'),
    twoWorkersOverOne('get-order', 'get-order'),
    timesTheMock(`get-quote, ${movingMarket}`, movingMarket, 'get-quote', 5),
    ...rows
      .filter((row) => row.target.startsWith('server') && (row.operation === 'get-quote' || row.operation === 'get-order'))
      .map((row): [string, boolean] => [
        `${row.target} ${row.operation}: p99 ${fixed(row.p99Ms, 2)} ms${p99OfEachRound(row) ? `, the median of ${row.p99RoundsMs!.length} rounds: ${p99OfEachRound(row)}` : ''} (target ≤ 5 ms)`,
        Number.isFinite(row.p99Ms) && row.p99Ms <= 5,
      ]),
    ...rows
      .filter((row) => row.operation === idleProbe)
      .map((row): [string, boolean] => [
        `${row.target} ${row.operation}: slowest ${fixed(row.maxMs ?? Number.NaN, 2)} ms (target < 20 ms)`,
        (row.maxMs ?? Number.POSITIVE_INFINITY) < 20,
      ]),
    ...rows
      .filter((row) => row.operation.startsWith('flow: '))
      .map((row): [string, boolean] => [
        `${row.target} ${row.operation}: p99 ${fixed(row.p99Ms, 2)} ms (target ≤ 50 ms)`,
        Number.isFinite(row.p99Ms) && row.p99Ms <= 50,
      ]),
  ];
  // A row with failed requests meets nothing: its figures are not the operation's.
  const failing = rows.filter((row) => row.failures > 0);
  for (const row of failing)
    checks.push([
      `${row.target} ${row.operation}: ${row.failures} non-2xx answers or socket errors (target 0)${row.failureExamples ? `, e.g. ${row.failureExamples.join(' | ')}` : ''}`,
      false,
    ]);
  // get-quote's targets were set on one quote asked again; quotes no request asked for before are held to them too.
  const beyond = [
    ...quoteTargets(everyAmountNew, 'embedded, a new amount every request'),
    ...quoteTargets(everyWalletNew, 'embedded, a new recipient every request'),
  ];
  const verdict = ([text, met]: [string, boolean]) => console.log(`- ${met ? 'met' : 'NOT met'}: ${text}`);
  console.log('\nTargets in this run:');
  checks.forEach(verdict);
  for (const note of notes) console.log(`- ${note}`);
  const framework = find(fastifyAlone, 'get-quote');
  const server = find('server, embedded', 'get-quote');
  if (framework && server)
    console.log(
      `\nThe framework's share: ${fastifyAlone} (bench/fastify-server.mjs, one of the server's get-quote answers, no plugin) answered ${fixed(ratio(fastifyAlone, 'get-quote', 'Prism mock'), 1)}× the mock at ${fixed(cpuUsPerRequest(framework))} µs of CPU a request; the server's one quote asked again ${fixed(ratio('server, embedded', 'get-quote', 'Prism mock'), 1)}× at ${fixed(cpuUsPerRequest(server))} µs.`,
    );
  const computed = find(everyAmountNew, 'get-quote');
  if (framework && server && computed)
    console.log(
      `The quote's share: the quote service alone (bench/quote-alone.mjs, in a process of its own, no HTTP; the answer written by JSON.stringify, as the server's serializer does) took ${fixed(quoteShare.askedAgain.medianUs)} µs of CPU a quote asked again and ${fixed(quoteShare.newAmount.medianUs)} a new amount; the server ${fixed(cpuUsPerRequest(server))} and ${fixed(cpuUsPerRequest(computed))} µs a request, Fastify alone ${fixed(cpuUsPerRequest(framework))}.`,
    );
  const mockQuote = find('Prism mock', 'get-quote');
  if (mockQuote?.cpu && server?.cpu)
    console.log(
      `The cores each used: the mock is two processes (its front and Prism) and used ${fixed(mockQuote.cpu.target)}% of one core, ${fixed(cpuUsPerRequest(mockQuote))} µs of CPU a get-quote; the embedded server is one process and used ${fixed(server.cpu.target)}%, ${fixed(cpuUsPerRequest(server))} µs a quote asked again: ${fixed(cpuUsPerRequest(mockQuote) / cpuUsPerRequest(server), 1)}× less CPU a request, against ${fixed(ratio('server, embedded', 'get-quote', 'Prism mock'), 1)}× the requests a second.`,
    );
  console.log(
    "\nget-quote's targets for quotes no request asked for before (a bar beyond the targets, which were set on one quote asked again):",
  );
  beyond.forEach(verdict);
  return { targets: checks, beyond };
}

/** The run's figures and verdicts as JSON (bench/results/, or BENCH_JSON), to compare two builds. */
function writeResults(
  rows: Row[],
  roundRows: Row[][],
  notes: string[],
  quoteShare: QuoteAlone,
  verdicts: { targets: Verdict[]; beyond: Verdict[] },
): void {
  const at = new Date().toISOString();
  const file = process.env.BENCH_JSON ?? here(`./results/${at.replace(/[:.]/g, '-')}.json`);
  mkdirSync(dirname(file), { recursive: true });
  const verdict = ([text, met]: Verdict) => ({ text, met });
  const run = {
    at,
    build: build(),
    node: process.version,
    cores: cpus().length,
    loadAverage: { start: loadAtStart, end: loadavg()[0] },
    settings: {
      seconds,
      warmupSeconds,
      firstWarmupRequests,
      connections,
      threads,
      rounds,
      orderQuotes,
      ordersRead,
      flowUsers,
      flowSeconds,
      flowArrivalSeconds,
    },
    rows,
    /** Every round of the rows measured in rounds, as measured. */
    roundRows,
    notes,
    /** The quote service alone, without HTTP (bench/quote-alone.mjs): CPU µs a call. */
    quoteAlone: quoteShare,
    targets: verdicts.targets.map(verdict),
    beyond: verdicts.beyond.map(verdict),
  };
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  console.log(`\nFigures written to ${file}`);
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
