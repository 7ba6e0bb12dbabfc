/** Targets of the bench, each a process of its own on a free loopback port, started and stopped here. */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../src/dev/postgres-cluster.js';

export interface TargetProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `command` (told its port by `withPort`) and waits until `probePath` answers over HTTP,
 * whatever the status. Its output is kept only to explain a failed start.
 */
export async function startProcess(command: string, withPort: (port: number) => { args: string[]; env?: NodeJS.ProcessEnv }, probePath = '/'): Promise<TargetProcess> {
  const port = await freePort();
  const { args, env } = withPort(port);
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  for (const started = Date.now(); ; ) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}:\n${output}`);
    if (Date.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`${command} ${args.join(' ')} did not answer within 60 s:\n${output}`);
    }
    if (await answers(url + probePath)) return { url, pid: child.pid!, stop: () => stop(child) };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(1000) }).then(
    async (response) => (await response.arrayBuffer(), true),
    () => false,
  );

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
