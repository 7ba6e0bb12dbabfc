/**
 * Every SQL statement over orders and what they hold: orders, their deposit addresses and Bitcoin
 * payments, the market maker's liquidity, the routes' volumes, the side effects of the lifecycle.
 * (The database itself is opened by src/store/open-store.ts.) Amounts are NUMERIC in the database and strings here; times are
 * read as Unix milliseconds so both engines return the same JavaScript values.
 */
import type { RouteKind } from '../config/config.js';
import { ConstraintViolation, type Queryable } from '../store/database.js';

export type OrderStatus = 'inProgress' | 'success' | 'failed' | 'refunded';

export interface SettlementTransfer {
  chain: string;
  token: string;
  amount: string;
  txHash: string;
  usd?: string;
}

/** What a settled order keeps: its transfers, or the payload of `failed`. */
export type Outcome = { transfers: SettlementTransfer[] } | { failed: unknown };

export interface OrderRow {
  id: string;
  seq: string;
  quote_id: string;
  api_version: 'v3' | 'v4';
  route: RouteKind;
  src_chain: string;
  src_token: string;
  src_amount: string;
  dst_chain: string;
  dst_token: string;
  dst_amount: string;
  sender: string | null;
  recipient: string;
  refund_address: string | null;
  deposit_address: string | null;
  op_return_data: string | null;
  estimated_time_secs: number;
  status: OrderStatus;
  src_tx_hash: string | null;
  src_seen_ms: number | null;
  payout_txid: string | null;
  payout_sent_ms: number | null;
  outcome: Outcome | null;
  created_ms: number;
}

/** What the chain adapters decide an order's next step on. */
export type OrderFacts = Pick<
  OrderRow,
  | 'id'
  | 'route'
  | 'src_chain'
  | 'src_token'
  | 'src_amount'
  | 'dst_chain'
  | 'dst_token'
  | 'dst_amount'
  | 'recipient'
  | 'refund_address'
  | 'sender'
  | 'created_ms'
  | 'src_seen_ms'
  | 'src_tx_hash'
  | 'payout_sent_ms'
>;

export type NewOrder = Omit<
  OrderRow,
  'seq' | 'status' | 'src_tx_hash' | 'src_seen_ms' | 'payout_txid' | 'payout_sent_ms' | 'outcome' | 'created_ms'
> & {
  created_ms: number;
  /** Who created it (`key:<id>` or `ip:<address>`). */
  client: string;
  /** When the lifecycle first looks at it (its agenda's due time). */
  first_look_ms: number;
};

// `seq` is selected as text (bigint does not fit a JS number), and an ORDER BY name means the output
// column first: every ORDER BY says `orders.seq`, the bigint, or "9" would sort after "10".
const columns = `
  id::text AS id, seq::text AS seq, quote_id::text AS quote_id, api_version, route,
  src_chain, src_token, src_amount::text AS src_amount, dst_chain, dst_token, dst_amount::text AS dst_amount,
  sender, recipient, refund_address, deposit_address, op_return_data, estimated_time_secs, status,
  src_tx_hash, (extract(epoch FROM src_seen_at) * 1000)::float8 AS src_seen_ms,
  payout_txid, (extract(epoch FROM payout_sent_at) * 1000)::float8 AS payout_sent_ms,
  outcome, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms`;

const iso = (ms: number) => new Date(ms).toISOString();

/** A write of an order that happened, and the order as written when it was asked for. */
export interface Written {
  row?: OrderRow;
}

/**
 * What a write answers, from the CTE named `cte` that inserted or updated the order (`RETURNING *`):
 * the order as written when `row` (a view keeps it: OrderEvents.keepsWritten), else only that it
 * happened. On PostgreSQL the row cost CPU a write that no view used.
 * Measured (bench/README.md): PostgreSQL's CPU a create-order, the build before against this: 1,888-2,022 → 2,167-2,497 µs with the row, 1,688-2,236 → 2,083-2,158 without.
 */
const writeAnswer = (cte: string, row: boolean) =>
  row ? `SELECT to_json(o) AS row FROM (SELECT ${columns} FROM ${cte}) o` : `SELECT NULL AS row FROM ${cte}`;

const written = ([answer]: Array<{ row: OrderRow | null }>): Written | undefined => answer && (answer.row ? { row: answer.row } : {});

/** Why writeOrder wrote nothing: the quote has an order, the token's liquidity is short, the client holds its limit. */
export class OrderRefused extends Error {
  constructor(readonly reason: 'duplicate' | 'no liquidity' | 'client at limit') {
    super(`the order was not written: ${reason}`);
    this.name = 'OrderRefused';
  }
}

/** What refuses writeOrder's statement as a whole, by the schema's names (migrations 001 and 012). */
const refusedBy: Record<string, OrderRefused['reason']> = {
  orders_quote_id_key: 'duplicate',
  client_unpaid_orders_within_limit: 'client at limit',
};

/**
 * Writes a new order in one statement: the order, its place on the lifecycle's agenda (due its first
 * look), its reservation of the liquidity it delivers, and its client's count of unpaid orders; answers
 * the order as written when `row`. The liquidity is reserved by a conditional UPDATE (concurrent
 * reservations queue on its row lock and each re-checks what is left, so the total is never
 * exceeded), and the order and the client's count are written only from its row: short of liquidity,
 * nothing is written. A second order of one quote (the unique quote_id) and a client beyond its limit
 * (the check on its count) fail the whole statement, the reservation with it. Sent on its own, the
 * statement holds the rows every order of a token and of a client shares only while PostgreSQL runs
 * it, liquidity first (migration 011); in a transaction, to its commit. Throws OrderRefused.
 * Measured (bench/README.md): the flow's create-order p99 on one PostgreSQL worker 21.9 → 14.5 ms (medians of 20 runs).
 */
export async function writeOrder(
  db: Queryable,
  order: NewOrder,
  liquidity: { chain: string; address: string; amount: string },
  /** How many unpaid orders `order.client` may hold. */
  unpaidLimit: number,
  row: boolean,
): Promise<Written> {
  let answer: Array<{ row: OrderRow | null }>;
  try {
    answer = await db.query<{ row: OrderRow | null }>(
      `WITH reserved AS (
         UPDATE liquidity SET reserved = reserved + $20::numeric
         WHERE chain = $21 AND token = $22 AND total - reserved >= $20::numeric RETURNING chain),
       counted AS (
         INSERT INTO client_unpaid_orders AS counts (client, unpaid, unpaid_limit)
         SELECT $18::text, 1, $23::integer FROM reserved
         ON CONFLICT (client) DO UPDATE SET unpaid = counts.unpaid + 1, unpaid_limit = excluded.unpaid_limit),
       inserted AS (
         INSERT INTO orders (id, quote_id, api_version, route, src_chain, src_token, src_amount, dst_chain, dst_token, dst_amount,
           sender, recipient, refund_address, deposit_address, op_return_data, estimated_time_secs, created_at, updated_at, client)
         SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::numeric, $8::text, $9::text, $10::numeric,
           $11::text, $12::text, $13::text, $14::text, $15::text, $16::integer, $17::timestamptz, $17::timestamptz, $18::text
         FROM reserved RETURNING *),
       scheduled AS (INSERT INTO order_agenda (order_id, due_at) SELECT id, $19 FROM inserted)
       ${writeAnswer('inserted', row)}`,
      [
        order.id,
        order.quote_id,
        order.api_version,
        order.route,
        order.src_chain,
        order.src_token,
        order.src_amount,
        order.dst_chain,
        order.dst_token,
        order.dst_amount,
        order.sender,
        order.recipient,
        order.refund_address,
        order.deposit_address,
        order.op_return_data,
        order.estimated_time_secs,
        iso(order.created_ms),
        order.client,
        iso(order.first_look_ms),
        liquidity.amount,
        liquidity.chain,
        liquidity.address,
        unpaidLimit,
      ],
    );
  } catch (error) {
    const reason = error instanceof ConstraintViolation ? refusedBy[error.constraint] : undefined;
    throw reason ? new OrderRefused(reason) : error;
  }
  const result = written(answer);
  if (!result) throw new OrderRefused('no liquidity');
  return result;
}

/** When the oldest unpaid order of a client was created, from the index of unpaid orders by client. */
export async function oldestUnpaidOrderMs(db: Queryable, client: string): Promise<number | null> {
  const [row] = await db.query<{ oldest_ms: number | null }>(
    `SELECT (extract(epoch FROM min(created_at)) * 1000)::float8 AS oldest_ms
     FROM orders WHERE client = $1 AND status = 'inProgress' AND src_seen_at IS NULL`,
    [client],
  );
  return row?.oldest_ms ?? null;
}

/** The next deposit address index (m/0/<n>), from a sequence: never handed out twice. */
export async function nextDepositAddressIndex(tx: Queryable): Promise<number> {
  const [{ index }] = (await tx.query<{ index: number }>(`SELECT nextval('deposit_address_index')::int AS index`)) as [{ index: number }];
  return index;
}

/** Keeps the raw payment registered for an onramp (the same payment twice is one row). */
export async function recordBitcoinTransaction(tx: Queryable, txid: string, hex: string, orderId: string): Promise<void> {
  await tx.query('INSERT INTO bitcoin_transactions (txid, hex, order_id) VALUES ($1, $2, $3) ON CONFLICT (txid) DO NOTHING', [
    txid,
    hex,
    orderId,
  ]);
}

export async function orderByQuote(db: Queryable, quoteId: string): Promise<string | undefined> {
  return (await db.query<{ id: string }>('SELECT id::text AS id FROM orders WHERE quote_id = $1', [quoteId]))[0]?.id;
}

/** An order id (a UUID, in either case). */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An order by its id, or by the hash of its source transaction (Bitcoin txid, EVM or Tron hash, Solana signature). */
export async function findOrder(db: Queryable, idOrHash: string): Promise<OrderRow | undefined> {
  // The row as one json column, which the driver parses with JSON.parse, as findOrdersById reads it.
  // Measured (bench/README.md): a read by id on PostgreSQL 125-145 → 99-117 µs of the server's CPU.
  const [found] = uuidPattern.test(idOrHash)
    ? await db.query<{ row: OrderRow }>(`SELECT to_json(o) AS row FROM (SELECT ${columns} FROM orders WHERE id = $1) o`, [idOrHash])
    : await db.query<{ row: OrderRow }>(
        `SELECT to_json(o) AS row FROM (SELECT ${columns} FROM orders WHERE src_tx_hash = $1 ORDER BY orders.seq DESC LIMIT 1) o`,
        [normalizeHash(idOrHash)],
      );
  return found?.row;
}

/** The orders with these ids (lower-case UUIDs), in no particular order; ids without an order have no row. */
export async function findOrdersById(db: Queryable, ids: string[]): Promise<OrderRow[]> {
  const found = await db.query<{ row: OrderRow }>(
    `SELECT to_json(o) AS row FROM (SELECT ${columns} FROM orders WHERE id = ANY($1::uuid[])) o`,
    [ids],
  );
  return found.map(({ row }) => row);
}

/** Hex hashes are compared in lower case; Base58 signatures as they are. */
export const normalizeHash = (hash: string) => (/^(0x)?[0-9a-fA-F]+$/.test(hash) ? hash.toLowerCase() : hash);

/** One page of the orders of an address stored in any of `forms`, newest first, after the order with sequence number `beforeSeq`. */
export async function listOrders(db: Queryable, forms: string[], limit: number, beforeSeq?: string): Promise<OrderRow[]> {
  return db.query<OrderRow>(
    `SELECT ${columns} FROM orders
     WHERE (sender = ANY($1::text[]) OR recipient = ANY($1::text[]) OR refund_address = ANY($1::text[])) AND ($2::bigint IS NULL OR seq < $2::bigint)
     ORDER BY orders.seq DESC LIMIT $3`,
    [forms, beforeSeq ?? null, limit],
  );
}

/** An order on the lifecycle's agenda, with the due time it was read at (as the database writes it). */
export interface DueOrder {
  order: OrderRow;
  dueAt: string;
}

/**
 * The lifecycle's next orders: in progress and due a look at `nowMs`, in the order of their due
 * times, after `after` (the last one of the batch before: a pass goes through the agenda once), at
 * most `limit`, leaving out `excluded` (those this instance is already looking at). Read through the
 * agenda's index on due times: the cost follows the orders due, not the orders open.
 */
export async function dueOrders(
  db: Queryable,
  nowMs: number,
  limit: number,
  after: DueOrder | undefined,
  excluded: string[],
): Promise<DueOrder[]> {
  return db.query<DueOrder>(
    `SELECT to_json(o) AS "order", o.due_at::text AS "dueAt" FROM (
       SELECT ${columns}, order_agenda.due_at FROM order_agenda JOIN orders ON orders.id = order_agenda.order_id
       WHERE order_agenda.due_at <= $1 AND NOT (order_agenda.order_id = ANY($3::uuid[]))
         AND ($4::timestamptz IS NULL OR (order_agenda.due_at, order_agenda.order_id) > ($4::timestamptz, $5::uuid))
       ORDER BY order_agenda.due_at, order_agenda.order_id LIMIT $2) o`,
    [iso(nowMs), limit, excluded, after?.dueAt ?? null, after?.order.id ?? null],
  );
}

/**
 * When an order looked at is next due a look, unless something happened to it meanwhile (its due
 * time is no longer the one read): then the due time that write set stays. Settled orders have left
 * the agenda.
 */
export async function scheduleOrder(db: Queryable, due: DueOrder, nextMs: number): Promise<void> {
  await db.query('UPDATE order_agenda SET due_at = $3 WHERE order_id = $1 AND due_at = $2::timestamptz', [
    due.order.id,
    due.dueAt,
    iso(nextMs),
  ]);
}

/** What an order records once, and its columns: the source transaction seen, the payout sent. */
const recordedOnce = {
  sourceSeen: { hash: 'src_tx_hash', at: 'src_seen_at' },
  payoutSent: { hash: 'payout_txid', at: 'payout_sent_at' },
} as const;

/**
 * Records the source transaction or the payout once (its hash and when), and when the lifecycle
 * next looks at the order; undefined when it was recorded before (or the order is settled).
 */
export async function recordOnce(
  db: Queryable,
  what: keyof typeof recordedOnce,
  id: string,
  hash: string,
  atMs: number,
  nextLookMs: number,
  row: boolean,
): Promise<Written | undefined> {
  const columns = recordedOnce[what];
  const recorded = await db.query<{ row: OrderRow | null }>(
    `WITH recorded AS (
       UPDATE orders SET ${columns.hash} = $2, ${columns.at} = $3, updated_at = $3
       WHERE id = $1 AND ${columns.hash} IS NULL AND status = 'inProgress' RETURNING *),
     due AS (UPDATE order_agenda SET due_at = $4 FROM recorded WHERE order_agenda.order_id = recorded.id)
     ${writeAnswer('recorded', row)}`,
    [id, hash, iso(atMs), iso(nextLookMs)],
  );
  return written(recorded);
}

/**
 * Settles an order still in progress (it leaves the lifecycle's agenda) and returns its reserved
 * liquidity in the same statement: spent on success, released otherwise. Undefined when the order
 * was already settled, or, `unpaid`, when its source transaction has been recorded since it was read.
 */
export async function settleOrder(
  db: Queryable,
  order: OrderRow,
  status: Exclude<OrderStatus, 'inProgress'>,
  outcome: Outcome,
  atMs: number,
  row: boolean,
  unpaid = false,
): Promise<Written | undefined> {
  // One statement, so that the liquidity row is locked before the client's (by the trigger at its end), as create-order locks them.
  const settled = await db.query<{ row: OrderRow | null }>(
    `WITH settled AS (
       UPDATE orders SET status = $2, outcome = $3::text::jsonb, updated_at = $4
       WHERE id = $1 AND status = 'inProgress' AND (src_tx_hash IS NULL OR NOT $9) RETURNING *),
     unscheduled AS (DELETE FROM order_agenda WHERE order_id IN (SELECT id FROM settled)),
     released AS (
       UPDATE liquidity SET reserved = reserved - $7::numeric, total = total - CASE WHEN $8 THEN $7::numeric ELSE 0 END
       WHERE chain = $5 AND token = $6 AND EXISTS (SELECT 1 FROM settled))
     ${writeAnswer('settled', row)}`,
    [
      order.id,
      status,
      JSON.stringify(outcome),
      iso(atMs),
      order.dst_chain,
      order.dst_token,
      order.dst_amount,
      status === 'success',
      unpaid,
    ],
  );
  return written(settled);
}

/** The liquidity of a token that open orders have not reserved. */
export async function availableLiquidity(db: Queryable, chain: string, token: string): Promise<string> {
  const [row] = await db.query<{ available: string }>(
    'SELECT (total - reserved)::text AS available FROM liquidity WHERE chain = $1 AND token = $2',
    [chain, token],
  );
  return row?.available ?? '0';
}

/** Sets the configured inventory; reservations of open orders are kept. */
export async function seedLiquidity(db: Queryable, entries: Array<{ chain: string; token: string; amount: string }>): Promise<void> {
  for (const entry of entries) {
    await db.query(
      `INSERT INTO liquidity (chain, token, total) VALUES ($1, $2, $3::numeric)
       ON CONFLICT (chain, token) DO UPDATE SET total = GREATEST(EXCLUDED.total, liquidity.reserved)`,
      [entry.chain, entry.token, entry.amount],
    );
  }
}

/** The market maker's total and reserved amount of every token. */
export async function listLiquidity(db: Queryable): Promise<Array<{ chain: string; token: string; total: string; reserved: string }>> {
  return db.query<{ chain: string; token: string; total: string; reserved: string }>(
    'SELECT chain, token, total::text AS total, reserved::text AS reserved FROM liquidity ORDER BY chain, token',
  );
}

/**
 * Claims the final effect of an order (its delivery or offramp payout, its refund, or a forced
 * failure) before it happens: an order has one, so of several instances, and of a delivery and a
 * refund forced meanwhile, exactly one goes ahead. Answers `claimed` to the one that must perform
 * it (`claimant`, the instance), else the effect that holds the claim with its recorded result (null
 * while it is under way). A claim of the same effect left without a result and not kept alive for
 * `leaseSeconds` (its instance died mid-way) is taken over; another effect's claim never is.
 */
export async function claimEffect(
  db: Queryable,
  orderId: string,
  effect: string,
  claimant: string,
  leaseSeconds: number,
): Promise<{ claimed: true } | { claimed: false; effect: string; result: string | null }> {
  const claimed = await db.query(
    `INSERT INTO order_effects (order_id, effect, claimed_at, claimed_by) VALUES ($1, $2, clock_timestamp(), $4)
     ON CONFLICT (order_id) DO UPDATE SET claimed_at = EXCLUDED.claimed_at, claimed_by = EXCLUDED.claimed_by
       WHERE order_effects.effect = EXCLUDED.effect AND order_effects.result IS NULL
         AND order_effects.claimed_at < clock_timestamp() - make_interval(secs => $3)
     RETURNING order_id`,
    [orderId, effect, leaseSeconds, claimant],
  );
  if (claimed.length === 1) return { claimed: true };
  const [row] = await db.query<{ effect: string; result: string | null }>('SELECT effect, result FROM order_effects WHERE order_id = $1', [
    orderId,
  ]);
  return { claimed: false, effect: row!.effect, result: row!.result };
}

/** The claimant is alive and still at work on these effects: their leases start again. */
export async function keepClaimsAlive(db: Queryable, orderIds: string[], claimant: string): Promise<void> {
  await db.query(
    `UPDATE order_effects SET claimed_at = clock_timestamp()
     WHERE order_id = ANY($1::uuid[]) AND claimed_by = $2 AND result IS NULL`,
    [orderIds, claimant],
  );
}

/** The claimed side effect happened; its result (a transaction hash) is what later passes use. */
export async function recordEffect(db: Queryable, orderId: string, effect: string, result: string): Promise<void> {
  await db.query('UPDATE order_effects SET result = $3 WHERE order_id = $1 AND effect = $2 AND result IS NULL', [orderId, effect, result]);
}
