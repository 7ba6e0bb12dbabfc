/** Runs wrk (Debian's package) in its own process and reads its summary. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers plus socket errors. */
  failures: number;
  requests: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  threads: number;
  /** A Lua script and its arguments. */
  script?: { path: string; args: string[] };
  /** The core wrk runs on (taskset), when it is pinned. */
  cpu?: number;
}

export async function wrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    ...(options.script ? ['-s', options.script.path] : []),
    url,
    ...(options.script?.args.length ? ['--', ...options.script.args] : []),
  ];
  const [command, commandArgs] = options.cpu === undefined ? ['wrk', args] : ['taskset', ['-c', String(options.cpu), 'wrk', ...args]];
  const { stdout } = await promisify(execFile)(command, commandArgs, { timeout: (options.seconds + 30) * 1000 });
  const number = (pattern: RegExp) => Number(pattern.exec(stdout)?.[1] ?? 0);
  const socketErrors =
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
      .exec(stdout)
      ?.slice(1)
      .reduce((sum, count) => sum + Number(count), 0) ?? 0;
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: latencyMs(stdout, '50%'),
    p99Ms: latencyMs(stdout, '99%'),
    failures: number(/Non-2xx or 3xx responses: (\d+)/) + socketErrors,
    requests: number(/(\d+) requests in/),
  };
}

function latencyMs(output: string, percentile: string): number {
  const match = new RegExp(`^\\s+${percentile}\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}
