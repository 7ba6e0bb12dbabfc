/** Opens the configured database, takes the data-directory lock, and brings the schema up to date. */
import { mkdirSync } from 'node:fs';
import { ConfigError } from '../config/config.js';
import { openDatabase, type Database, type DatabaseOptions } from './database.js';
import { lockDataDir } from './lock.js';
import { migrate } from './migrations.js';

export interface Store {
  db: Database;
  close(): Promise<void>;
}

export async function openStore(options: DatabaseOptions): Promise<Store> {
  let unlock = () => {};
  if (!options.databaseUrl && options.dataDir) {
    try {
      mkdirSync(options.dataDir, { recursive: true });
    } catch (error) {
      throw new ConfigError(`the data directory ${options.dataDir} cannot be made: ${(error as Error).message}`);
    }
    unlock = lockDataDir(options.dataDir);
  }
  let db: Database | undefined;
  try {
    db = await openDatabase(options);
    await migrate(db);
  } catch (error) {
    await db?.close();
    unlock();
    throw error;
  }
  const opened = db;
  return {
    db: opened,
    async close() {
      await opened.close();
      unlock();
    },
  };
}
