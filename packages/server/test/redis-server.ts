/**
 * A throwaway Redis for tests: Debian's redis-server on a Unix socket in a temporary directory (no
 * TCP port, no persistence), stopped and removed afterwards. Without the binary, `findRedis()` says why.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function findRedis(): { bin: string } | { missing: string } {
  try {
    return { bin: execFileSync('sh', ['-c', 'command -v redis-server']).toString().trim() };
  } catch {
    return { missing: "no redis-server found (install Debian's redis-server; scripts/system-deps.sh does)" };
  }
}

export interface RedisServer {
  /** The socket path, as GATEWAY_REDIS_URL takes it. */
  url: string;
  /** Ends the process, as an outage would; `restart` starts it again on the same socket, empty. */
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(bin: string): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-redis-'));
  const socket = join(dir, 'redis.sock');
  const launch = async () => {
    const child = spawn(
      bin,
      ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    for (let waited = 0; !existsSync(socket); waited += 20) {
      if (child.exitCode !== null || waited > 5000) {
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`redis-server did not open ${socket}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return {
      async kill() {
        child.kill('SIGTERM');
        await exited;
      },
    };
  };
  let running: Awaited<ReturnType<typeof launch>> | undefined = await launch();
  const kill = async () => {
    await running?.kill();
    running = undefined;
  };
  return {
    url: socket,
    kill,
    async restart() {
      running ??= await launch();
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
