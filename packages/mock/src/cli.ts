#!/usr/bin/env node
/**
 * `pnpm mock [--host 127.0.0.1] [--port 4010] [--dynamic] [--seed N] [--verbose]`: runs the mock
 * until Ctrl-C (SIGINT) or SIGTERM, then stops Prism and exits.
 */
import { parseArgs } from 'node:util';
import { startMock } from './index.js';

const usage = 'usage: swap-gateway-mock [--host 127.0.0.1] [--port 4010] [--dynamic] [--seed <seed>] [--verbose]';

/** The command line's options; a bad one prints the usage and exits 2. */
function readOptions() {
  try {
    return parseArgs({
      // `pnpm mock -- --port 5000` passes the separator through.
      args: process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--')),
      options: {
        host: { type: 'string', default: process.env.MOCK_HOST ?? '127.0.0.1' },
        port: { type: 'string', default: process.env.MOCK_PORT ?? '4010' },
        dynamic: { type: 'boolean', default: false },
        seed: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const values = readOptions();
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer from 0 to 65535, not ${values.port}\n${usage}`);
    process.exit(2);
  }

  const mock = await startMock({
    host: values.host,
    port,
    dynamic: values.dynamic,
    ...(values.seed !== undefined && { seed: values.seed }),
    ...(values.verbose && { log: (line: string) => console.log(line) }),
  });
  const mode = values.dynamic ? `dynamic${values.seed !== undefined ? `, seed ${values.seed}` : ''}` : 'static examples';
  console.log(`Swap Gateway mock (Prism ${mock.prismPid}, ${mode}) listening on ${mock.url}`);
  console.log('Press Ctrl-C to stop.');

  const shutdown = (signal: NodeJS.Signals) => {
    console.log(`${signal}: stopping the mock`);
    mock.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  // Prism died and could not be kept running: end with a failure the owner sees.
  void mock.failed.then((error) => {
    console.error(error.message);
    process.exit(1);
  });
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
