/**
 * A program started as a process of its own on a free loopback port and waited for until it answers
 * over HTTP: the server of the staging-like deployment (contract tests) and the bench's targets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ProcessOptions {
  command: string;
  /** Its arguments, told the port it is to listen on. */
  args: (port: number) => string[];
  /** Added to this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Asked until it answers, whatever the status. Default `/`. */
  probePath?: string;
  /** `inherit` shows its output as it comes; `on failure` (default) keeps the end of it to explain a failed start. */
  output?: 'inherit' | 'on failure';
  /** Default 60 s. */
  startTimeoutMs?: number;
}

export interface StartedProcess {
  url: string;
  pid: number;
  /** SIGTERM, then SIGKILL when it has not exited within 10 s. */
  stop(): Promise<void>;
}

export async function startProcess(options: ProcessOptions): Promise<StartedProcess> {
  const port = await freePort();
  const args = options.args(port);
  const described = `${options.command} ${args.join(' ')}`;
  const url = `http://127.0.0.1:${port}`;
  const inherit = options.output === 'inherit';
  const child = spawn(options.command, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  for (const started = Date.now(); ; ) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${described} exited (${child.signalCode ?? child.exitCode}) before it answered:\n${output}`);
    if (Date.now() - started > timeoutMs) {
      await stop(child);
      throw new Error(`${described} did not answer ${url}${options.probePath ?? '/'} within ${timeoutMs / 1000} s:\n${output}`);
    }
    if (await answers(url + (options.probePath ?? '/'))) return { url, pid: child.pid!, stop: () => stop(child) };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
