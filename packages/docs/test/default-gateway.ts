/**
 * The gateway a sample reaches when the reader sets nothing: http://127.0.0.1:8080, where `pnpm
 * server` listens. The test puts a recording proxy there in front of its own sandbox, so that the
 * samples run exactly as printed and the test sees what they sent (the Authorization header of each
 * request). The proxy takes out the one well-formed key the test gives the samples, which the
 * sandbox never issued, so that the sandbox answers as it would a key it knows; any other key (a
 * malformed one) goes through and gets the sandbox's own answer.
 *
 * When 127.0.0.1:8080 is taken (a `pnpm server` of the developer's), each sample runs in a network
 * namespace of its own (`unshare --net --map-root-user`), whose 127.0.0.1:8080 is bridged to the
 * proxy through a Unix socket (default-gateway-bridge.ts). Without `unshare` and `ip` there the test
 * fails, naming the port.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as forward, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const bridgeScript = fileURLToPath(new URL('./default-gateway-bridge.ts', import.meta.url));

export const defaultGatewayUrl = 'http://127.0.0.1:8080';
const defaultPort = 8080;

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  timeout: number;
}

export interface DefaultGateway {
  /** How the samples reach it: the test's proxy on the port itself, or a namespace per sample. */
  mode: 'port' | 'namespace';
  /** Every request that reached the proxy since the last `clear`. */
  requests: RecordedRequest[];
  clear(): void;
  /** Runs a command whose http://127.0.0.1:8080 is the proxy. */
  run(command: string, args: string[], options: RunOptions): Promise<{ stdout: string; stderr: string }>;
  close(): Promise<void>;
}

/**
 * Runs a program as execFile does (its output collected, an error with `code`, `stdout` and `stderr`
 * when it fails or outlives `timeout`), but with nothing on its standard input: no sample reads one, and
 * bash started with a socket there (execFile's pipes are sockets) and no SHLVL (the samples' empty
 * environment) takes itself for a remote shell and reads ~/.bashrc (Debian's SSH_SOURCE_BASHRC). With a
 * version manager set up there (pyenv on this machine) that cost about 1 s of CPU a curl sample.
 */
export function runProgram(
  command: string,
  args: string[],
  { cwd, env, timeout }: RunOptions,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, timeout, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => reject(Object.assign(error, { stdout, stderr })));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve({ stdout, stderr });
      const failure = new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${stderr}${stdout}`);
      reject(Object.assign(failure, { code, signal, stdout, stderr }));
    });
  });
}

const listen = (server: Server, ...target: [number, string] | [string]) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(...(target as [number, string]), () => {
      server.off('error', reject);
      resolve();
    });
  });

function namespacesWork(): boolean {
  const probe = spawnSync('unshare', ['--net', '--map-root-user', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** A recording proxy in front of `target` (the sandbox's URL), reached as http://127.0.0.1:8080. */
export async function defaultGateway(target: string, testKey: string): Promise<DefaultGateway> {
  const requests: RecordedRequest[] = [];
  const upstream = new URL(target);
  const proxy = createServer((incoming, answer) => {
    requests.push({ method: incoming.method ?? '', path: incoming.url ?? '', authorization: incoming.headers.authorization });
    const headers: IncomingHttpHeaders = { ...incoming.headers, host: upstream.host };
    if (headers.authorization === `Bearer ${testKey}`) delete headers.authorization;
    const outgoing = forward(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    outgoing.on('error', (error) => answer.writeHead(502).end(String(error)));
    incoming.pipe(outgoing);
  });
  const common = {
    requests,
    clear: () => void requests.splice(0),
  };
  try {
    await listen(proxy, defaultPort, '127.0.0.1');
    return {
      ...common,
      mode: 'port',
      run: runProgram,
      close: () => new Promise((resolve) => proxy.close(() => resolve())),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  }
  if (!namespacesWork()) {
    throw new Error(
      `${defaultGatewayUrl} is taken by another process (pnpm server?), and this machine cannot give the samples a network of their own (unshare --net --map-root-user, ip): stop it and run the test again`,
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'swap-gateway-default-gateway-'));
  const socket = join(folder, 'proxy.sock');
  await listen(proxy, socket);
  return {
    ...common,
    mode: 'namespace',
    run: (command, args, options) =>
      runProgram(
        'unshare',
        ['--net', '--map-root-user', '--', process.execPath, '--import', tsxLoader, bridgeScript, socket, command, ...args],
        options,
      ),
    close: () =>
      new Promise((resolve) =>
        proxy.close(() => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        }),
      ),
  };
}
