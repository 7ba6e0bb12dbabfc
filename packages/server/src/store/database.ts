/**
 * One SQL interface over two engines: embedded PostgreSQL (PGlite, in a data directory, nothing to
 * install) by default, and a PostgreSQL server (`pg`) when a database URL is given. Both speak the
 * same SQL, so there is one schema and one set of migrations.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ConfigError } from '../config/config.js';
import { DependencyUnavailable } from '../errors.js';
import { EmbeddedStatements } from './embedded-statements.js';
import { createEmbedded } from './empty-store.js';

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Resolves when the database answers a query (the health check). */
  ping(): Promise<void>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** PostgreSQL only (other instances write to it too): a connection of its own that listens on a channel. */
  listen?(channel: string, events: ListenerEvents): Promise<ListeningConnection>;
  /**
   * The same database for work no request waits on (the lifecycle): on the embedded engine its
   * statements give way to those of requests; on PostgreSQL it is this database.
   */
  readonly background: Database;
  close(): Promise<void>;
}

export interface ListenerEvents {
  /** A notification on the channel, in the order of the commits that sent them. */
  notified(payload: string): void;
  /** The connection failed or ended (not called after `close`): notifications may have been missed. */
  lost(error: Error): void;
}

/**
 * A query on the listening connection returns after the notifications of every commit acknowledged
 * before it was sent: a commit signals the listening backends before its own client is answered,
 * and a listening backend sends what it was signalled before it runs the next query, or, signalled
 * while it runs, before it answers. That holds on a session of its own with the primary (not through
 * a pooler in transaction mode, which does not carry notifications).
 */
export interface ListeningConnection extends Queryable {
  /**
   * A round trip that reads nothing (an empty query, which PostgreSQL neither plans nor runs): it
   * returns after the notifications of every commit acknowledged before it was sent.
   */
  barrier(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Errors that say the database cannot be reached or is not serving now (it restarts, fails over, is
 * down), rather than that the request was wrong: SQLSTATE classes 08 (connection exception) and 57P
 * (operator intervention: shutdown, cannot connect now), the socket's own errors (over a Unix
 * socket, a connect's ENOENT: a stopped PostgreSQL removes its socket file, so a socket path
 * that is wrong is waited for too, as a host not found is), and the driver's words for a
 * connection cut or a connection not made in time.
 */
function isUnavailable(error: unknown): boolean {
  const { code, message, syscall } = error as { code?: string; message?: string; syscall?: string };
  if (typeof code === 'string' && (/^08/.test(code) || /^57P0[1-3]$/.test(code))) return true;
  if (
    typeof code === 'string' &&
    (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code) ||
      (code === 'ENOENT' && syscall === 'connect'))
  )
    return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message ?? '',
  );
}

/**
 * A write the schema refused: a unique constraint (SQLSTATE 23505) or a check (23514), named as the
 * schema names it, so that what owns the statement can say what the refusal means (a second order of
 * one quote, a client at its limit). The whole statement, or transaction, wrote nothing.
 */
export class ConstraintViolation extends Error {
  constructor(
    readonly constraint: string,
    readonly cause: unknown,
  ) {
    super(`the write breaks the constraint ${constraint}`);
    this.name = 'ConstraintViolation';
  }
}

/** The engine's refusal by a named constraint as a ConstraintViolation; any other error as it is. */
function constraintTranslated(error: unknown): unknown {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return (code === '23505' || code === '23514') && constraint ? new ConstraintViolation(constraint, error) : error;
}

/** The engine's error in the store's terms: a DependencyUnavailable, a ConstraintViolation, or as it is. */
function translated(error: unknown): unknown {
  return isUnavailable(error) ? new DependencyUnavailable('database', error) : constraintTranslated(error);
}

/** A statement of a transaction: a constraint's refusal reaches `work` as a ConstraintViolation (the transaction's end translates the rest). */
const inTransaction = async <Row>(statement: () => Promise<Row[]>): Promise<Row[]> => {
  try {
    return await statement();
  } catch (error) {
    throw constraintTranslated(error);
  }
};

const translating = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw translated(error);
  }
};

export interface DatabaseOptions {
  /** postgres://... : use this PostgreSQL server. */
  databaseUrl?: string;
  /**
   * What happens to the PostgreSQL server's connections outside any query (an idle connection
   * terminated by a restart), and while the store waits for the server at start-up: told, not thrown.
   */
  log?: (message: string, error: unknown) => void;
  /** Directory of the embedded database; omitted, the embedded database lives in memory. */
  dataDir?: string;
}

/** How long a query on a listening connection may take before the connection counts as lost. */
const listeningQueryTimeoutMs = 5000;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.log ?? (() => undefined)) : openEmbedded(options.dataDir);
}

/** Connections of a process to PostgreSQL: for requests, and for the lifecycle (Database.background). */
const requestConnections = 10;
const backgroundConnections = 4;

/** How long a new connection to PostgreSQL may take before the request that needed it gets a 503. */
const connectTimeoutMs = 5000;
/** Start-up's waits between two tries while the server is unreachable: growing to the last, then kept. */
const startWaitsMs = [250, 500, 1000, 2000, 5000];

/**
 * The buffer pool of an in-memory database: its files are in memory already, and a start prepares
 * the whole pool, so 16 MB rather than postgresql.conf's 128 MB.
 * Measured (bench/README.md): an in-memory open after the process's first, 1.29 → 1.15 s of CPU (medians of 8).
 */
const inMemoryStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

async function openEmbedded(dataDir: string | undefined): Promise<Database> {
  const db = await createEmbedded(dataDir, dataDir ? PGlite.defaultStartParams : inMemoryStartParams);
  const statements = new EmbeddedStatements(db);
  const turns = new EmbeddedTurns();
  const embedded = (background: boolean): Database => ({
    engine: 'pglite',
    query: <Row>(sql: string, params?: unknown[]) => translating(() => turns.take(() => statements.query<Row>(sql, params), background)),
    ping: () => turns.take(async () => void (await db.query('SELECT 1')), background),
    // PGlite runs one transaction at a time, so concurrent transactions are serialized; the
    // statements of one run in its turn, one after another.
    transaction: (work) =>
      translating(() =>
        turns.take(
          () =>
            db.transaction((tx) =>
              work({ query: <Row>(sql: string, params?: unknown[]) => inTransaction(() => statements.query<Row>(sql, params, tx)) }),
            ),
          background,
        ),
      ),
    get background() {
      return backgroundDatabase;
    },
    close: () => db.close(),
  });
  const backgroundDatabase = embedded(true);
  return embedded(false);
}

/**
 * The embedded engine's statements (or transactions), one at a time, each started in a task of its
 * own. PGlite runs a statement on the server's thread, and statements queued behind one another
 * resumed one another without returning to the event loop, so a lifecycle pass or requests arriving
 * together stalled every other request for the whole batch. Requests' statements go first; the
 * background's (the lifecycle) take every fifth turn while requests wait, so that a steady load does
 * not hold settlements back for ever.
 * Measured (bench/README.md): 200 queued updates stalled the loop 190-740 ms, 6-75 ms in turns; the flow's slowest call, p99 106-177 → 27-29 ms.
 */
class EmbeddedTurns {
  private readonly requests: Array<() => void> = [];
  private readonly background: Array<() => void> = [];
  private busy = false;
  private requestsInARow = 0;

  take<T>(work: () => Promise<T>, background: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (background ? this.background : this.requests).push(() =>
        work()
          .then(resolve, reject)
          .finally(() => {
            this.busy = false;
            this.next();
          }),
      );
      this.next();
    });
  }

  private next(): void {
    if (this.busy) return;
    const backgroundTurn = this.background.length > 0 && (this.requests.length === 0 || this.requestsInARow >= 4);
    const start = backgroundTurn ? this.background.shift() : this.requests.shift();
    if (!start) return;
    this.requestsInARow = backgroundTurn ? 0 : this.requestsInARow + 1;
    this.busy = true;
    setImmediate(start);
  }
}

async function openPostgres(databaseUrl: string, log: NonNullable<DatabaseOptions['log']>): Promise<Database> {
  // Idle connections stay open (pg-pool closes them after 10 s by default): opening one again starts
  // a PostgreSQL backend and prepares the statements again.
  // Measured (bench/README.md): a worker's first requests on reopened connections took 360-390 ms.
  const newPool = (max: number) => {
    const opened = new pg.Pool({ connectionString: databaseUrl, max, idleTimeoutMillis: 0, connectionTimeoutMillis: connectTimeoutMs });
    // An idle connection the server terminates (a restart, a failover) is dropped from the pool, which
    // opens another when one is needed; unhandled, the event would end the process.
    opened.on('error', (error) => log('a database connection was lost while idle; the next query opens another', error));
    return opened;
  };
  const pool = newPool(requestConnections);
  // The lifecycle's own connections: its looks (up to 32 at once) held every connection of the pool
  // while requests waited for one.
  // Measured (bench/README.md): the flow's p99 a call 10-47 → 6-15 ms.
  const backgroundPool = newPool(backgroundConnections);
  // Start once the server answers: an unreachable one (still starting, restarting) is waited for, so
  // that a worker started during an outage serves when it ends; any other failure (a wrong password,
  // no such database) is the configuration's and stops the start.
  for (let attempt = 0; ; attempt++) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (error) {
      if (!isUnavailable(error)) {
        await pool.end();
        throw new ConfigError(`the database refused the server: ${(error as Error).message}`);
      }
      const waitMs = startWaitsMs[Math.min(attempt, startWaitsMs.length - 1)]!;
      log(`the database is unreachable; trying again in ${waitMs} ms`, error);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
  // Statements outside transactions (reads, and writes of one statement such as create-order's) are
  // prepared once per connection and then only executed: the SQL is fixed text, so one name per text.
  const names = new Map<string, string>();
  const named = (sql: string) => {
    const name = names.get(sql) ?? `gateway_${names.size}`;
    names.set(sql, name);
    return name;
  };
  /** Each listening connection's own close, which `lost` does not follow. */
  const listeners = new Set<() => Promise<void>>();
  let closed = false;
  /** Statements and transactions on one of the pools. */
  const statementsOn = (pool: pg.Pool): Pick<Database, 'query' | 'ping' | 'transaction'> => ({
    query: <Row>(sql: string, params?: unknown[]) =>
      translating(async () => (await pool.query({ name: named(sql), text: sql, values: params })).rows as Row[]),
    ping: () => translating(async () => void (await pool.query('SELECT 1'))),
    async transaction(work) {
      const client = await translating(() => pool.connect());
      let broken: Error | undefined;
      // A connection terminated between two statements of the transaction (while `work` computes) is
      // an 'error' event on the checked-out client, which the pool listens for only while it is idle:
      // noted here, the next statement fails with it.
      const cut = (error: Error) => (broken = error);
      client.on('error', cut);
      try {
        await client.query('BEGIN');
        const result = await work({
          query: <Row>(sql: string, params?: unknown[]) => inTransaction(async () => (await client.query(sql, params)).rows as Row[]),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that failed is not given back to the pool, which would hand it to the next request.
        if (isUnavailable(error)) broken = error as Error;
        else await client.query('ROLLBACK').catch(() => undefined);
        throw translated(error);
      } finally {
        client.off('error', cut);
        client.release(broken);
      }
    },
  });
  const database: Database = {
    engine: 'postgres',
    ...statementsOn(pool),
    async listen(channel, events) {
      if (closed) throw new Error('the database is closed');
      // Named, so that an operator finds it in pg_stat_activity. A connection cut without a reset
      // would hold its query for ever: the timeout fails it, and its owner opens another.
      const client = new pg.Client({
        connectionString: databaseUrl,
        application_name: `gateway listening on ${channel}`,
        keepAlive: true,
        query_timeout: listeningQueryTimeoutMs,
      });
      let ended = false;
      const end = () => {
        ended = true;
        listeners.delete(end);
        return client.end();
      };
      const fail = (error: Error) => {
        if (ended) return;
        end().catch(() => undefined);
        events.lost(error);
      };
      client.on('notification', (message) => {
        if (message.channel === channel) events.notified(message.payload ?? '');
      });
      client.on('error', fail);
      client.on('end', () => fail(new Error('the listening connection ended')));
      listeners.add(end);
      try {
        await client.connect();
        await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      } catch (error) {
        await end().catch(() => undefined);
        throw error;
      }
      return {
        async query<Row>(sql: string, params?: unknown[]) {
          return (await client.query({ name: named(sql), text: sql, values: params })).rows as Row[];
        },
        async barrier() {
          await client.query('');
        },
        close: end,
      };
    },
    get background() {
      return background;
    },
    async close() {
      closed = true;
      await Promise.all([...listeners].map((end) => end().catch(() => undefined)));
      await Promise.all([pool.end(), backgroundPool.end()]);
    },
  };
  const background: Database = {
    engine: 'postgres',
    ...statementsOn(backgroundPool),
    listen: database.listen,
    get background() {
      return background;
    },
    close: () => database.close(),
  };
  return database;
}
