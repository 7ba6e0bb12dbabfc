/**
 * One SQL interface over two engines: embedded PostgreSQL (PGlite, in a data directory, nothing to
 * install) by default, and a PostgreSQL server (`pg`) when a database URL is given. Both speak the
 * same SQL, so there is one schema and one set of migrations.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://... : use this PostgreSQL server. */
  databaseUrl?: string;
  /** Directory of the embedded database; omitted, the embedded database lives in memory. */
  dataDir?: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openEmbedded(options.dataDir);
}

async function openEmbedded(dataDir: string | undefined): Promise<Database> {
  const db = await PGlite.create(dataDir);
  return {
    engine: 'pglite',
    async query<Row>(sql: string, params?: unknown[]) {
      return (await db.query<Row>(sql, params)).rows;
    },
    // PGlite runs one transaction at a time, so concurrent transactions are serialized.
    transaction: (work) =>
      db.transaction((tx) => work({ query: async <Row>(sql: string, params?: unknown[]) => (await tx.query<Row>(sql, params)).rows })),
    close: () => db.close(),
  };
}

async function openPostgres(databaseUrl: string): Promise<Database> {
  // Idle connections stay open (pg-pool closes them after 10 s by default): opening one again starts
  // a PostgreSQL backend and prepares the statements again, and a worker's first requests on new
  // connections took 360 to 390 ms on the loaded 2-core development machine.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, idleTimeoutMillis: 0 });
  // Fail at start-up, not at the first request, when the server is unreachable.
  await pool.query('SELECT 1');
  // Statements outside transactions (the reads: get-order, get-orders, key lookups) are prepared once
  // per connection and then only executed: the SQL is fixed text, so one name per text.
  const names = new Map<string, string>();
  const named = (sql: string) => {
    const name = names.get(sql) ?? `gateway_${names.size}`;
    names.set(sql, name);
    return name;
  };
  return {
    engine: 'postgres',
    async query<Row>(sql: string, params?: unknown[]) {
      return (await pool.query({ name: named(sql), text: sql, values: params })).rows as Row[];
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
