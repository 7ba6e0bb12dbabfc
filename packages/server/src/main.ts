/**
 * `pnpm server` / `pnpm --filter @swap-gateway/server start`: the gateway with the built-in sandbox
 * configuration on 127.0.0.1:8080, or as configured (--config, --host, --port, --data-dir, or the
 * environment: GATEWAY_CONFIG, GATEWAY_HOST, GATEWAY_PORT, GATEWAY_DATA_DIR, DATABASE_URL, ...).
 * `--workers N` runs N processes on one port (PostgreSQL only). SIGINT/SIGTERM close it gracefully.
 */
import { parseArgs } from 'node:util';
import { ConfigError, type ConfigOverrides, loadConfig } from './config/config.js';
import { checkWorkers, isWorkerProcess, superviseWorkers } from './workers.js';

const usage = 'usage: gateway-server [--config FILE] [--host HOST] [--port N] [--data-dir DIR] [--workers N]';

const values = readOptions();

/** The command line, or a one-line error with the usage (exit 2) rather than a stack trace. */
function readOptions() {
  try {
    return parseArgs({
      // `pnpm server -- --port 9000` hands the separator on; what follows it are still our options.
      args: process.argv.slice(2).filter((argument, index) => !(index === 0 && argument === '--')),
      options: {
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        workers: { type: 'string' },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

const overrides: ConfigOverrides = {
  ...(values.host !== undefined || values.port !== undefined
    ? {
        server: {
          ...(values.host !== undefined ? { host: values.host } : {}),
          ...(values.port !== undefined ? { port: Number(values.port) } : {}),
        },
      }
    : {}),
  ...(values['data-dir'] !== undefined ? { storage: { dataDir: values['data-dir'] } } : {}),
};
const workers = Number(values.workers ?? 1);
if (!Number.isInteger(workers) || workers < 1) {
  console.error(`--workers must be a whole number of at least 1, got ${values.workers}\n${usage}`);
  process.exit(2);
}
/** A configuration the server cannot run with is said in its own words, not as a stack trace (exit 2). */
function refuse(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`[gateway] ${error.message}`);
  process.exit(2);
}

// The configuration is checked before the server's modules load: a mistake is said at once, and the
// primary of `--workers`, which only supervises, never loads them.
let warnings: string[];
try {
  warnings = checkWorkers(workers, loadConfig({ configFile: values.config, overrides }));
} catch (error) {
  refuse(error);
}
if (!isWorkerProcess()) for (const warning of warnings) console.warn(`[gateway] ${warning}`);
if (workers > 1 && !isWorkerProcess()) {
  superviseWorkers(workers, (message) => console.log(`[gateway] ${message}`));
} else {
  await serve();
}

async function serve(): Promise<void> {
  const { startServer } = await import('./server.js');
  const server = await startServer({
    configFile: values.config,
    config: overrides,
    logger: { level: process.env.LOG_LEVEL ?? 'info' },
  }).catch(refuse);
  server.log.info(`swap gateway listening on ${server.url} (storage: ${server.services.db.engine}; health: ${server.url}/health)`);

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      server.log.info(`${signal}: finishing in-flight requests, then closing the store`);
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          server.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
