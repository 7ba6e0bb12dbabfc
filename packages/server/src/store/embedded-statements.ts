/**
 * The embedded engine's statements with parameters, each prepared once by its text and then run in
 * one exchange with PGlite (Bind, Describe, Execute, Sync). PGlite's own `query` parses and plans
 * the text anew every time, in six exchanges. Values and rows go through PGlite's own serializers
 * and parsers, as with `query`, and an error names its statement as `query`'s do. Statements
 * without parameters (the migrations' DDL, a sequence's next value, the sandbox's state) run
 * through `query` as they are: the database's, or in a transaction the transaction's (the
 * database's would wait for the transaction to end).
 * Measured (bench/README.md): an order's update 645-700 → 346-347 µs, a read by id 403-545 → 151-174 µs.
 */
import { parse, type PGlite, protocol, type Transaction } from '@electric-sql/pglite';

/** What runs a statement as it is: the database, or a transaction of it. */
type Plain = Pick<Transaction, 'query'>;

interface Prepared {
  name: string;
  /** The type of each parameter, as the server inferred it. */
  types: number[];
}

const { serialize } = protocol;
const runPortal = Buffer.concat([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);

export class EmbeddedStatements {
  private readonly prepared = new Map<string, Prepared>();
  private named = 0;

  constructor(private readonly db: PGlite) {}

  async query<Row>(sql: string, params: unknown[] = [], plain: Plain = this.db): Promise<Row[]> {
    if (params.length === 0) return (await plain.query<Row>(sql)).rows;
    // The protocol goes around PGlite's own check: a statement after close fails as `query` would.
    if (this.db.closed) throw new Error('PGlite is closed');
    try {
      const { name, types } = this.prepared.get(sql) ?? (await this.prepare(sql));
      const values = params.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = this.db.serializers[types[index]!];
        return serializer ? serializer(value) : String(value);
      });
      const { messages } = await this.db.execProtocol(Buffer.concat([serialize.bind({ statement: name, values }), runPortal]));
      return parse.parseResults(messages, this.db.parsers)[0]!.rows as Row[];
    } catch (error) {
      throw Object.assign(error as Error, { query: sql, params });
    }
  }

  /** A statement the server keeps for this connection: a failed one is not kept, and fails again when sent again. */
  private async prepare(sql: string): Promise<Prepared> {
    const name = `gateway_${this.named++}`;
    const { messages } = await this.db.execProtocol(
      Buffer.concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
    );
    const prepared = { name, types: parse.parseDescribeStatementResults(messages) };
    this.prepared.set(sql, prepared);
    return prepared;
  }
}
