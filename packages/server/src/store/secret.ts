/**
 * The secret that seals quotes and page cursors: the configured one, else one generated at the
 * first start and kept in the store, so that it is never a public value and every instance on one
 * database (and every restart) uses the same one.
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.js';

export async function signingSecret(db: Queryable, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db.query(`INSERT INTO gateway_settings (name, value) VALUES ('signing_secret', $1) ON CONFLICT (name) DO NOTHING`, [
    randomBytes(32).toString('base64url'),
  ]);
  return (await db.query<{ value: string }>(`SELECT value FROM gateway_settings WHERE name = 'signing_secret'`))[0]!.value;
}
