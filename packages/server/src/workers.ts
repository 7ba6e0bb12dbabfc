/**
 * `--workers N`: N server processes sharing one port (node:cluster; each worker accepts its own
 * connections from the shared socket). Each worker is a whole gateway on the same PostgreSQL database: orders,
 * reservations and lifecycle claims are exact across them (the database arbitrates), and rate
 * limits are shared when Redis is configured. The primary only starts, replaces and stops workers.
 */
import cluster from 'node:cluster';
import { ConfigError, type GatewayConfig } from './config/config.js';

export function checkWorkers(count: number, config: GatewayConfig): string[] {
  if (count > 1 && !config.storage.databaseUrl) {
    throw new ConfigError('several workers need PostgreSQL (DATABASE_URL): the embedded store belongs to one process');
  }
  if (config.rateLimits.redisUrl || !config.storage.databaseUrl) return [];
  // On PostgreSQL, other processes may serve the same database, each counting alone.
  return count > 1
    ? ['rate limits are counted per worker; set GATEWAY_REDIS_URL to count them together']
    : ['rate limits are counted by this process alone; set GATEWAY_REDIS_URL to count them with the others on this database'];
}

/**
 * Runs in the primary: forks the workers, replaces one that dies after it served, stops everything
 * when one dies before it listened (a configuration or database problem that a restart repeats),
 * and stops them all on SIGINT/SIGTERM.
 */
export function superviseWorkers(count: number, log: (message: string) => void): void {
  let stopping = false;
  const listened = new Set<number>();
  // Not round robin, where the primary accepts and hands each connection on: a connection handed to
  // a worker as it was killed stayed open in the primary, unserved, for ever (a test's request hung
  // 120 s; nodejs/node-v0.x-archive#7928). Accepted by the worker itself, it closes with it.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on('listening', (worker) => listened.add(worker.id));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (!listened.has(worker.id)) {
      log(`worker ${worker.process.pid} exited (${signal ?? code}) before it listened; stopping`);
      stopping = true;
      // A worker that refused the configuration (exit 2, its reason on stderr) makes the group's answer.
      process.exitCode = code === 2 ? 2 : 1;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode);
      return;
    }
    log(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: stopping ${count} workers`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
}

export const isWorkerProcess = () => cluster.isWorker;
