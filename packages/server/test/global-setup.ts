/**
 * Once per run, before every file: a migrated, empty embedded data directory, which the tests that
 * need a store of their own on disk copy (`freshDataDir`, helpers.ts) rather than start from nothing.
 * A new directory is loaded from the build's empty files and migrated, about 3.6 s of CPU; a copy of
 * this one opens in about 1 s. The in-memory stores need none of it: they start from those files
 * (src/store/empty-store.ts). Likewise, where PostgreSQL is installed, one initdb that every
 * PostgreSQL cluster of the tests copies (test-support/postgres.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findPostgres, initializePostgresData } from '@swap-gateway/test-support/postgres';
import { openStore } from '../src/store/open-store.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated, empty data directory the tests copy. */
    storeTemplate: string;
    /** The initialized PostgreSQL data directory the clusters copy; undefined without PostgreSQL. */
    postgresData: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'gateway-template-'));
  const template = join(root, 'data');
  const store = await openStore({ dataDir: template });
  await store.close();
  project.provide('storeTemplate', template);
  const binaries = findPostgres();
  const postgresData = 'missing' in binaries ? undefined : initializePostgresData(binaries);
  project.provide('postgresData', postgresData?.data);
  return () => {
    rmSync(root, { recursive: true, force: true });
    postgresData?.remove();
  };
}
