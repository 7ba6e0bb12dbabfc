/**
 * The Prism process: started directly with `node <prism-cli>/dist/index.js mock`, never through a
 * package-manager wrapper, so that the child we hold is Prism itself and killing it leaves nothing
 * behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface PrismOptions {
  /** The OpenAPI document file Prism serves. */
  document: string;
  port: number;
  /** Generate bodies from the schemas (json-schema-faker) instead of answering the examples. */
  dynamic: boolean;
  /** Seed of the dynamic generator, so that a run answers the same bodies every time. */
  seed?: string | number | undefined;
  /** Receives each line Prism logs (for `--verbose` in the CLI); by default the lines are only kept for error messages. */
  log?: ((line: string) => void) | undefined;
}

export interface PrismProcess {
  /** `http://127.0.0.1:<port>`: Prism listens on loopback only, behind the front. */
  url: string;
  pid: number;
  /** Resolves when the process ends, whether stopped or not, with how it ended. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

const readyTimeoutMs = 30_000;
const stopGraceMs = 3_000;

function prismEntry(): string {
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
}

export async function startPrism(options: PrismOptions): Promise<PrismProcess> {
  // Prism reads more than the front (Node's 16 KiB), so that whatever the front accepted reaches it
  // with the headers the front adds; CORS is the front's (cors.ts), so Prism's own headers would only contradict it.
  const args = [
    '--max-http-header-size=65536',
    prismEntry(),
    'mock',
    options.document,
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--no-cors',
  ];
  if (options.dynamic) args.push('--dynamic');
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // A parent that exits normally takes Prism with it, even if nobody called stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));

  const recent: string[] = [];
  const onLine = (line: string) => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
    options.log?.(line);
  };
  lines(child.stdout, onLine);
  lines(child.stderr, onLine);

  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) =>
      resolve(
        `${signal ? `signal ${signal}` : `exit code ${code}`}${recent.length ? `; last output:\n${recent.slice(-10).join('\n')}` : ''}`,
      ),
    ),
  );
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitForListening(child, recent, readyTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${options.port}`, pid: child.pid!, exited, stop };
}

/** Prism prints `Prism is listening on http://...` once every operation is loaded. */
function waitForListening(child: ChildProcess, recent: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failure = (reason: string) => new Error(`Prism did not start: ${reason}\n${recent.join('\n')}`);
    const timer = setTimeout(() => finish(failure(`not listening after ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      if (chunk.toString().includes('Prism is listening on')) finish();
    };
    const onExit = (code: number | null, signal: string | null) => finish(failure(`exited with ${signal ?? code}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function lines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) onLine(part);
  });
}
