/**
 * The files of an empty embedded database (PGlite's initdb, before the migrations), from which the
 * embedded databases start: initdb is most of a start. `pnpm build` writes them (write-empty-store.ts)
 * under a name that carries PGlite's version; a process without them makes them once, from its first
 * in-memory database. The figures: bench/README.md, "Test stores".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';

/** The version of PGlite the package pins (package.json), so that files of another version are not read. */
const pgliteVersion: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).dependencies[
  '@electric-sql/pglite'
];
/** In dist/, from src/store/ and dist/store/ alike. */
const builtPath = new URL(`../../dist/empty-store-pglite-${pgliteVersion}.tar.gz`, import.meta.url);

/**
 * A dump that gives PGlite its bytes at once: Node 20's Blob.arrayBuffer reads them in chunks and joins them.
 * Measured (bench/README.md): an in-memory open after the process's first two, 1.22 → 1.08 s of CPU (medians of 8).
 */
class HeldBlob extends Blob {
  private readonly held: ArrayBuffer;
  constructor(bytes: ArrayBuffer) {
    super([bytes]);
    this.held = bytes;
  }
  // A copy, as the Blob's own would be: each database reads the one dump.
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.held.slice(0));
  }
}

async function dump(db: PGlite, compression: 'none' | 'gzip' = 'none'): Promise<HeldBlob> {
  return new HeldBlob(await (await db.dumpDataDir(compression)).arrayBuffer());
}

/**
 * The empty files in memory, unpacked once, for the in-memory databases of this process: the tests
 * start dozens, and a start from unpacked bytes took 0.82-0.94 s of CPU against 0.99-1.13 s gzipped.
 */
let emptyFiles: Promise<HeldBlob | undefined> | undefined;

function readBuilt(): HeldBlob | undefined {
  if (!existsSync(builtPath)) return undefined;
  const bytes = gunzipSync(readFileSync(builtPath));
  return new HeldBlob(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** An embedded database, in `dataDir` (new or not) or in memory, started from the empty files when it is new. */
export async function createEmbedded(dataDir: string | undefined, startParams: string[]): Promise<PGlite> {
  if (!dataDir) return createInMemory(startParams);
  if (existsSync(`${dataDir}/PG_VERSION`)) return PGlite.create(dataDir, { startParams });
  // A new data directory, once in a process's life: the built files as they are, nothing kept.
  const built = existsSync(builtPath) ? new Blob([readFileSync(builtPath)]) : undefined;
  return PGlite.create(dataDir, { ...(built ? { loadDataDir: built } : {}), startParams });
}

async function createInMemory(startParams: string[]): Promise<PGlite> {
  emptyFiles ??= Promise.resolve(readBuilt());
  const files = await emptyFiles;
  if (files) return PGlite.create({ loadDataDir: files, startParams });
  const db = await PGlite.create({ startParams });
  emptyFiles = dump(db);
  await emptyFiles;
  return db;
}

/** Writes the empty files where the next processes read them: the build's last step. */
export async function writeEmptyStore(): Promise<string> {
  const db = await PGlite.create();
  const files = await dump(db, 'gzip');
  await db.close();
  writeFileSync(builtPath, new Uint8Array(await files.arrayBuffer()));
  return builtPath.pathname;
}
