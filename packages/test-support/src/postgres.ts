/**
 * A throwaway PostgreSQL cluster for tests: initdb in a temporary directory, or a copy of an
 * initialized data directory (`initializePostgresData`), pg_ctl on a free loopback port, removed
 * afterwards. Used by the server's tests and benches and by the contract suite's staging-like
 * deployment.
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user (runuser).
 * Without PostgreSQL binaries, `findPostgres()` says why.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';

export interface PostgresBinaries {
  bin: string;
}

export function findPostgres(): PostgresBinaries | { missing: string } {
  const candidates = [
    process.env.PG_BIN,
    ...listVersions('/usr/lib/postgresql').map((version) => `/usr/lib/postgresql/${version}/bin`),
  ].filter(Boolean) as string[];
  const bin = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!bin) return { missing: "no initdb/pg_ctl found (set PG_BIN, or install Debian's postgresql)" };
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return { missing: 'running as root and there is no postgres user to run PostgreSQL as' };
    }
  }
  return { bin };
}

function listVersions(dir: string): string[] {
  try {
    return readdirSync(dir).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

export interface PostgresCluster {
  /** Over TCP on 127.0.0.1. */
  url: string;
  /** Over the cluster's Unix socket, as a server on the same machine reaches it. */
  socketUrl: string;
  /** The postmaster's process id (its children are the connections' backends). */
  pid(): number;
  /** Creates a database of its own in the cluster (`createdb`) and returns its `socketUrl`. */
  createDatabase(name: string): string;
  /** `pg_ctl restart -m fast`: every connection is terminated, and the server is back when this resolves. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, keeping the data: the server is unreachable until `start`. */
  pause(): Promise<void>;
  /** Starts the server paused, on the same port and data. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const asRoot = () => process.getuid?.() === 0;

/** A temporary directory PostgreSQL can write in: as root, the `postgres` user's. */
function clusterDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (asRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** A command line run as the `postgres` user when running as root (PostgreSQL refuses root). */
const commandOf = (command: string, args: string[]) =>
  (asRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]) as [string, string[]];

const initdb = (binaries: PostgresBinaries, data: string) =>
  execFileSync(
    ...commandOf(join(binaries.bin, 'initdb'), ['-D', data, '-U', 'gateway', '--auth=trust', '-E', 'UTF8', '--no-instructions']),
    {
      stdio: 'pipe',
    },
  );

export interface InitializedData {
  /** The data directory, for `startPostgres` to copy. */
  data: string;
  remove(): void;
}

/**
 * One initdb for the clusters of a whole run to copy: a copy takes about 0.3 s where initdb took
 * 4 to 8 s (1.4 s of CPU) on the 2-core CI machine.
 */
export function initializePostgresData(binaries: PostgresBinaries): InitializedData {
  const dir = clusterDirectory('gateway-pg-initdb-');
  const data = join(dir, 'data');
  initdb(binaries, data);
  return { data, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `initialized`: a data directory to start from (a copy), rather than an initdb of the cluster's own. */
export async function startPostgres(binaries: PostgresBinaries, initialized?: string): Promise<PostgresCluster> {
  const dir = clusterDirectory('gateway-pg-');
  const run = (tool: string, args: string[]) => execFileSync(...commandOf(join(binaries.bin, tool), args), { stdio: 'pipe' });
  /** While the server restarts or stops, the test's own requests go on: pg_ctl runs beside them. */
  const runBeside = async (tool: string, args: string[]) => void (await promisify(execFile)(...commandOf(join(binaries.bin, tool), args)));
  const data = join(dir, 'data');
  const port = await freePort();
  // `cp -a` as the cluster's user keeps the owner and the 0700 mode PostgreSQL insists on.
  if (initialized) execFileSync(...commandOf('cp', ['-a', initialized, data]), { stdio: 'pipe' });
  else initdb(binaries, data);
  const serverOptions = ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`];
  run('pg_ctl', [...serverOptions, 'start']);
  const socketUrl = (database: string) => `postgres://gateway@localhost/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
  return {
    url: `postgres://gateway@127.0.0.1:${port}/postgres`,
    socketUrl: socketUrl('postgres'),
    createDatabase(name) {
      run('createdb', ['-h', dir, '-p', String(port), '-U', 'gateway', name]);
      return socketUrl(name);
    },
    pid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    restart: () => runBeside('pg_ctl', [...serverOptions, '-m', 'fast', 'restart']),
    pause: () => runBeside('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start: () => runBeside('pg_ctl', [...serverOptions, 'start']),
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
