/**
 * One process at a time in an embedded data directory (PGlite is single-process). The lock is a
 * file holding the owner's pid; a lock left by a process that no longer runs (kill -9) is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/config.js';

export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'gateway.pid');
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number(readFileSync(file, 'utf8'));
    if (owner && owner !== process.pid && isRunning(owner)) {
      throw new ConfigError(
        `the data directory ${dataDir} is in use by process ${owner}; stop it first, or use DATABASE_URL for several processes`,
      );
    }
    writeFileSync(file, String(process.pid));
  }
  return () => rmSync(file, { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
