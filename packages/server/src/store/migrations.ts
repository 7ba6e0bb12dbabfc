/**
 * The schema, as an ordered list of migrations applied once each. Several server instances may
 * start at once on one PostgreSQL: an advisory lock makes them apply the migrations one at a time.
 */
import type { Database } from './database.js';

const migrations: Array<{ id: string; sql: string }> = [
  {
    id: '001_initial',
    sql: `
      CREATE TABLE quotes (
        id uuid PRIMARY KEY,
        route text NOT NULL,
        body jsonb NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE orders (
        seq bigserial NOT NULL UNIQUE,
        id uuid PRIMARY KEY,
        quote_id uuid NOT NULL UNIQUE REFERENCES quotes (id),
        api_version text NOT NULL,
        route text NOT NULL,
        src_chain text NOT NULL,
        src_token text NOT NULL,
        src_amount numeric(78, 0) NOT NULL,
        dst_chain text NOT NULL,
        dst_token text NOT NULL,
        dst_amount numeric(78, 0) NOT NULL,
        sender text,
        recipient text NOT NULL,
        refund_address text,
        deposit_address text,
        op_return_data text,
        estimated_time_secs integer NOT NULL,
        status text NOT NULL DEFAULT 'inProgress',
        src_tx_hash text,
        src_seen_at timestamptz,
        payout_txid text,
        payout_sent_at timestamptz,
        outcome jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX orders_src_tx_hash ON orders (src_tx_hash);
      CREATE INDEX orders_sender ON orders (sender, seq DESC);
      CREATE INDEX orders_recipient ON orders (recipient, seq DESC);
      CREATE INDEX orders_refund_address ON orders (refund_address, seq DESC);
      CREATE INDEX orders_in_progress ON orders (status) WHERE status = 'inProgress';

      -- Market-maker inventory: what is reserved by open orders can never exceed the total.
      CREATE TABLE liquidity (
        chain text NOT NULL,
        token text NOT NULL,
        total numeric(78, 0) NOT NULL,
        reserved numeric(78, 0) NOT NULL DEFAULT 0,
        PRIMARY KEY (chain, token),
        CHECK (reserved >= 0 AND reserved <= total)
      );

      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        key_hash text NOT NULL UNIQUE,
        label text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      -- Transactions "broadcast" through the Bitcoin adapter.
      CREATE TABLE bitcoin_transactions (
        txid text PRIMARY KEY,
        hex text NOT NULL,
        order_id uuid NOT NULL REFERENCES orders (id),
        broadcast_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE SEQUENCE deposit_address_index;
    `,
  },
  {
    // API keys are looked up by a prefix of their hash and compared in full in constant time
    // (keys/keys.ts); the column is derived, so every key issued before keeps working.
    id: '002_api_key_hash_prefix',
    sql: `
      ALTER TABLE api_keys ADD COLUMN key_hash_prefix text GENERATED ALWAYS AS (left(key_hash, 16)) STORED;
      CREATE INDEX api_keys_key_hash_prefix ON api_keys (key_hash_prefix);
    `,
  },
  {
    // A quote's seal is its proof (quote/seal.ts): get-quote no longer stores quotes, an order keeps
    // the id of its quote (unique: the duplicate check), and the signing secret lives here when the
    // configuration names none. Lifecycle side effects are claimed in order_effects before they
    // happen, so that of several instances exactly one performs each.
    id: '003_sealed_quotes_settings_effects',
    sql: `
      ALTER TABLE orders DROP CONSTRAINT orders_quote_id_fkey;
      DROP TABLE quotes;
      CREATE TABLE gateway_settings (
        name text PRIMARY KEY,
        value text NOT NULL
      );
      CREATE TABLE order_effects (
        order_id uuid NOT NULL REFERENCES orders (id),
        effect text NOT NULL,
        claimed_at timestamptz NOT NULL,
        result text,
        PRIMARY KEY (order_id, effect)
      );
    `,
  },
  {
    // A route's global volume limit sums its open orders on every get-quote and create-order (the
    // latter under the route's lock): from the index alone.
    // Measured (bench/README.md): the sum at 10,000 open orders of 200,000, 12.5 → 0.4 ms.
    id: '004_open_volume_index',
    sql: `CREATE INDEX orders_open_volume ON orders (src_chain, src_token) INCLUDE (src_amount) WHERE status = 'inProgress';`,
  },
  {
    // An order ends one way: its delivery (an offramp's payout), its refund, or a forced failure.
    // One claim per order (orders/lifecycle.ts), so a refund or a failure forced while the delivery
    // is under way is refused instead of both happening. Of an order claimed twice before, the
    // first claim stays.
    id: '005_one_final_effect_per_order',
    sql: `
      DELETE FROM order_effects later USING order_effects earlier
        WHERE later.order_id = earlier.order_id AND (later.claimed_at, later.effect) > (earlier.claimed_at, earlier.effect);
      ALTER TABLE order_effects DROP CONSTRAINT order_effects_pkey;
      ALTER TABLE order_effects ADD PRIMARY KEY (order_id);
    `,
  },
  {
    // Each instance on PostgreSQL keeps the orders it read in memory and drops the ones whose id is
    // notified here (orders/reads.ts), whichever instance wrote them, or a statement by hand. The
    // notification is sent when the update commits. New orders need none: no view holds them yet.
    // A settled order is final (every update the server makes is of an order in progress), and the
    // views answer one they keep without asking: an update of one is refused.
    id: '006_notify_order_changes',
    sql: `
      CREATE FUNCTION gateway_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF OLD.status <> 'inProgress' THEN RAISE EXCEPTION 'order % is settled (%): it does not change', OLD.id, OLD.status; END IF; PERFORM pg_notify('gateway_order_changed', NEW.id::text); RETURN NULL; END $$;
      CREATE TRIGGER orders_changed AFTER UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION gateway_order_changed();
    `,
  },
  {
    // The sandbox's state (sandbox/state.ts: clock offset, faults to inject, prices and their walk)
    // and the outputs the simulated Bitcoin chain handed out (chains/bitcoin.ts) live in the store,
    // so that every process of a deployment answers alike, whichever got the control call.
    id: '007_shared_sandbox',
    sql: `
      CREATE TABLE sandbox_state (
        id integer PRIMARY KEY CHECK (id = 1),
        version bigint NOT NULL,
        state jsonb NOT NULL
      );
      CREATE TABLE simulated_bitcoin_outputs (
        txid text NOT NULL,
        vout integer NOT NULL,
        script text NOT NULL,
        value numeric(78, 0) NOT NULL,
        PRIMARY KEY (txid, vout)
      );
    `,
  },
  {
    // The lifecycle's agenda (orders/lifecycle.ts): when each order in progress is next due a look,
    // so that a pass reads the orders due, through the index, not every order open. A row is written
    // with the order, rewritten with each change of it, and deleted when it settles. Effects
    // record who claimed them, so that a live instance keeps its own claims alive and no other.
    // Transfers the simulated chains made, by idempotency key (chains/settlement.ts).
    id: '008_lifecycle_agenda',
    sql: `
      CREATE TABLE order_agenda (
        order_id uuid PRIMARY KEY REFERENCES orders (id),
        due_at timestamptz NOT NULL
      );
      CREATE INDEX order_agenda_due ON order_agenda (due_at, order_id);
      INSERT INTO order_agenda (order_id, due_at) SELECT id, now() FROM orders WHERE status = 'inProgress';
      ALTER TABLE order_effects ADD COLUMN claimed_by text;
      CREATE TABLE simulated_transfers (
        idempotency_key text PRIMARY KEY,
        tx_hash text NOT NULL,
        attempts integer NOT NULL DEFAULT 1
      );
    `,
  },
  {
    // Who created each order (an API key, or the address of a keyless caller), so that the unpaid
    // orders one client holds open, and the liquidity they reserve, are capped
    // (orders.maxUnpaidPerClient); counted from the index alone.
    id: '009_order_clients',
    sql: `
      ALTER TABLE orders ADD COLUMN client text;
      CREATE INDEX orders_unpaid_by_client ON orders (client, created_at) WHERE status = 'inProgress' AND src_seen_at IS NULL;
    `,
  },
  {
    // How many unpaid orders each client holds, kept by a trigger on every write of an order, so that
    // create-order reads one row instead of counting the client's unpaid orders, a cost that grew
    // with them. create-order locks its client's row before it reserves liquidity, as a settlement
    // does (the trigger, then the liquidity).
    // Measured (bench/README.md): 1.0-4.9 ms at 1,733 unpaid orders → 0.3-0.4 ms.
    id: '010_unpaid_orders_per_client',
    sql: `
      CREATE TABLE client_unpaid_orders (
        client text PRIMARY KEY,
        unpaid integer NOT NULL
      );
      INSERT INTO client_unpaid_orders (client, unpaid)
        SELECT client, count(*) FROM orders WHERE client IS NOT NULL AND status = 'inProgress' AND src_seen_at IS NULL GROUP BY client;
      CREATE FUNCTION gateway_count_unpaid() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE was boolean := TG_OP <> 'INSERT' AND OLD.client IS NOT NULL AND OLD.status = 'inProgress' AND OLD.src_seen_at IS NULL; is_now boolean := TG_OP <> 'DELETE' AND NEW.client IS NOT NULL AND NEW.status = 'inProgress' AND NEW.src_seen_at IS NULL; BEGIN IF was AND NOT is_now THEN UPDATE client_unpaid_orders SET unpaid = unpaid - 1 WHERE client = OLD.client; ELSIF is_now AND NOT was THEN INSERT INTO client_unpaid_orders (client, unpaid) VALUES (NEW.client, 1) ON CONFLICT (client) DO UPDATE SET unpaid = client_unpaid_orders.unpaid + 1; END IF; RETURN NULL; END $$;
      CREATE TRIGGER orders_unpaid_count AFTER INSERT OR UPDATE OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION gateway_count_unpaid();
    `,
  },
  {
    // A client's row is its orders' one hot row on PostgreSQL: every create-order of an API key locked
    // it first and held it to commit, so that key's orders went one at a time. create-order now takes
    // its place last (orders/queries.ts writeOrder), after its liquidity, and the
    // trigger counts only the orders that stop being unpaid. Every statement locks liquidity before
    // the client's row (a settlement is one statement, its trigger firing at its end), so none waits
    // for another in a cycle. The orders of instances of an earlier build still running are not counted.
    id: '011_unpaid_place_taken_last',
    sql: `
      CREATE OR REPLACE FUNCTION gateway_count_unpaid() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE was boolean := TG_OP <> 'INSERT' AND OLD.client IS NOT NULL AND OLD.status = 'inProgress' AND OLD.src_seen_at IS NULL; is_now boolean := TG_OP <> 'DELETE' AND NEW.client IS NOT NULL AND NEW.status = 'inProgress' AND NEW.src_seen_at IS NULL; BEGIN IF was AND NOT is_now THEN UPDATE client_unpaid_orders SET unpaid = unpaid - 1 WHERE client = OLD.client; END IF; RETURN NULL; END $$;
    `,
  },
  {
    // A client's limit is kept beside its count, and a check refuses a count above it: create-order
    // writes the order, its liquidity and its place in one statement (orders/queries.ts writeOrder),
    // which a client at its limit must fail as a whole, so that the liquidity reserved before its place
    // is taken is given back by the same rollback. Each create-order writes the limit it applies, so a
    // changed configuration counts from the next order; the rows before this hold no limit.
    id: '012_unpaid_limit_checked',
    sql: `
      ALTER TABLE client_unpaid_orders ADD COLUMN unpaid_limit integer NOT NULL DEFAULT 2147483647;
      ALTER TABLE client_unpaid_orders ADD CONSTRAINT client_unpaid_orders_within_limit CHECK (unpaid <= unpaid_limit);
    `,
  },
];

export async function migrate(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (db.engine === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(8080080)');
    await tx.query('CREATE TABLE IF NOT EXISTS gateway_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await tx.query<{ id: string }>('SELECT id FROM gateway_migrations')).map((row) => row.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO gateway_migrations (id) VALUES ($1)', [migration.id]);
      applied.push(migration.id);
    }
    return applied;
  });
}

/** Statements one by one: extended-protocol queries (with parameters or not) take one statement each. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
