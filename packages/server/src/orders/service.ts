/**
 * Orders: create-order (V4 and V3 rules), register-tx, get-order and get-orders.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
  GatewayCreateOrderV3,
  GatewayOrderInfoV3,
  GatewayOrdersPageV3,
  GatewayRegisterTxResultV4,
  GatewayRegisterTxV4,
} from '@swap-gateway/types';
import { normalizeAddress, storedForms } from '../chains/addresses.js';
import {
  addressOf,
  amountProblem,
  buildPaymentPsbt,
  inputSignatureProblem,
  InsufficientFunds,
  parsePayment,
  psbtMagicHex,
  type BitcoinAdapter,
  type DepositAddresses,
  type Prevout,
  type Utxo,
} from '../chains/bitcoin.js';
import { buildSourceTransaction } from '../chains/transactions.js';
import type { Clock } from '../clock.js';
import type { Catalogue } from '../config/catalogue.js';
import type { GatewayConfig, RouteKind } from '../config/config.js';
import { DomainError, invalidOrderArgs, invalidRequest, orderNotFound, unpaidOrderLimit } from '../errors.js';
import { checkVolumeLimits } from '../volumes/limits.js';
import { lockRouteVolume } from '../volumes/queries.js';
import type { QuoteEngineContext } from '../quote/engine.js';
import { requote } from '../quote/requote.js';
import { asIssued, type QuoteSeal } from '../quote/seal.js';
import type { Database, Queryable } from '../store/database.js';
import type { CursorCodec } from './cursor.js';
import {
  availableLiquidity,
  findOrder,
  listLiquidity,
  listOrders,
  recordOnce,
  nextDepositAddressIndex,
  orderByQuote,
  oldestUnpaidOrderMs,
  OrderRefused,
  recordBitcoinTransaction,
  writeOrder,
  type NewOrder,
  type OrderFacts,
  type OrderRow,
  type Written,
} from './queries.js';
import type { OrderEvents } from './events.js';
import type { OrderReads } from './reads.js';
import type { OrderView } from './view.js';

export interface OrderServiceDeps {
  db: Database;
  config: GatewayConfig;
  catalogue: Catalogue;
  seal: QuoteSeal;
  /** What get-quote quotes with: offramp and token-swap quotes without their seal are quoted again. */
  quoteEngine: QuoteEngineContext;
  cursors: CursorCodec;
  clock: Clock;
  bitcoin: BitcoinAdapter;
  depositAddresses: DepositAddresses;
  view: OrderView;
  reads: OrderReads;
  events: OrderEvents;
  /** When the lifecycle next looks at an order as just written (orders/lifecycle.ts nextLookMs). */
  nextLookMs(order: OrderFacts, now: number): number;
}

/** An onramp's deposit address and the OP_RETURN data that ties its payment to it. */
type Deposit = { address: string; opReturnData: string };

type QuoteBody = Record<string, unknown> & {
  inputAmount: { amount: string; address: string; chain: string };
  outputAmount: { amount: string; address: string; chain: string };
  recipient: string;
  slippage: string | number;
  sender?: string | null;
  refundAddress?: string | null;
  ownerAddress?: string;
  txTo?: string;
  dstChain?: string;
  affiliate?: { address: string; bps: number } | null;
  estimatedTimeInSecs?: number | null;
};

export class OrderService {
  constructor(private readonly deps: OrderServiceDeps) {}

  /**
   * create-order. The checks run in the order a client can fix them: the refund address (V4) or
   * the owner (V3, checked before validation by the V3 route), the seal and its expiry (an offramp
   * or token-swap quote without one: a re-quote), someone who can reclaim the funds, then
   * the order written with its liquidity and its client's count of unpaid orders (writeOrder): in one
   * statement, or for an onramp or a route with volume limits in one transaction after the duplicate
   * check, the volume limits (under the route's lock) and the deposit address.
   */
  /** `client`: who asks (`key:<id>` or `ip:<address>`), whose unpaid orders are capped; `keyed` when by an API key. */
  async create(
    body: Record<string, unknown>,
    apiVersion: 'v3' | 'v4',
    client: { id: string; keyed: boolean },
  ): Promise<GatewayCreateOrderV3> {
    const { seal, clock, db } = this.deps;
    const route = Object.keys(body)[0] as RouteKind;
    const sent = body[route] as QuoteBody;
    const sealed = seal.open(route, sent);
    // An onramp quote's refund address, which V3 clients leave out (their model has none), is its seal's.
    const quote = asIssued(sent, sealed);
    if (apiVersion === 'v4' && !quote.refundAddress) {
      throw new DomainError(
        'MISSING_REFUND_ADDRESS',
        'the quote was requested without a refundAddress; request a new quote with one',
        null,
      );
    }
    if (sealed && clock.now() > sealed.exp)
      throw new DomainError('ORDER_EXPIRED', 'the quote expired; request a new one', {
        message: `expired at ${new Date(sealed.exp).toISOString()}`,
      });
    // A sealed quote's id makes a second order from that quote a duplicate. Offramp and token-swap
    // quotes come back without their seal from clients generated from the public V4 document (and
    // from every V3 client): they are verified by quoting them again, and each makes an order of
    // its own, as a new quote would; the same swap repeated is a new swap, never a duplicate. A seal
    // that does not match is a quote changed after get-quote, on every route: quoted again, it would
    // pass with edits the new quote cannot see (its slippage, a dropped sender).
    if (!sealed) {
      if (route === 'onramp' || (quote.signedQuoteData !== undefined && quote.signedQuoteData !== null))
        throw invalidOrderArgs('the quote was changed after get-quote, or was not issued by this service', {
          message: 'signedQuoteData does not match the quote',
        });
      requote(route, quote, this.deps.quoteEngine, apiVersion);
    }
    const quoteId = sealed?.id ?? randomUUID();
    if (route !== 'onramp' && !this.refundAddress(route, quote)) {
      // Only a V3 token swap gets here (V4 requires refundAddress, a V3 offramp ownerAddress): the
      // source contract would hold the funds with no owner, so no order is created.
      throw invalidOrderArgs(
        'the quote names no refundAddress and no sender, so nobody could reclaim the funds; request a new quote with a sender, which the V3 token-swap shape carries (it has no refundAddress)',
        {
          expected: 'refundAddress or sender',
          actual: 'none',
        },
      );
    }
    const quotedRoute = this.deps.catalogue.route(
      quote.inputAmount.chain,
      quote.inputAmount.address,
      quote.outputAmount.chain,
      quote.outputAmount.address,
    );
    const limitedRoute = quotedRoute?.perAccountLimit !== undefined || quotedRoute?.globalLimit !== undefined ? quotedRoute : undefined;

    const orderId = randomUUID();
    const newOrder = (deposit: Deposit | undefined): NewOrder => {
      const order = {
        id: orderId,
        quote_id: quoteId,
        api_version: apiVersion,
        route,
        src_chain: quote.inputAmount.chain,
        src_token: quote.inputAmount.address,
        src_amount: quote.inputAmount.amount,
        dst_chain: quote.outputAmount.chain,
        dst_token: quote.outputAmount.address,
        dst_amount: quote.outputAmount.amount,
        sender: this.stored(quote.inputAmount.chain, quote.sender),
        recipient: this.stored(quote.outputAmount.chain, quote.recipient)!,
        refund_address: this.stored(quote.inputAmount.chain, this.refundAddress(route, quote)),
        deposit_address: deposit?.address ?? null,
        op_return_data: deposit?.opReturnData ?? null,
        estimated_time_secs: quote.estimatedTimeInSecs ?? 0,
        created_ms: clock.now(),
        client: client.id,
      };
      const firstLookMs = this.deps.nextLookMs({ ...order, src_tx_hash: null, src_seen_ms: null, payout_sent_ms: null }, order.created_ms);
      return { ...order, first_look_ms: firstLookMs };
    };
    const write = (on: Queryable, deposit?: Deposit) =>
      writeOrder(on, newOrder(deposit), quote.outputAmount, this.unpaidLimit(client), this.deps.events.keepsWritten);
    // Read before the transaction: an indexer's answer is no part of it, and it would hold the locks while it waits.
    const senderUtxos = route === 'onramp' && quote.sender ? await this.deps.bitcoin.utxos(quote.sender) : undefined;
    // Built before the write, so that an order whose answer cannot be built (an onramp's sender short
    // of bitcoin for its PSBT) is not written.
    const respond = (deposit?: Deposit) =>
      route === 'onramp'
        ? this.onrampResponse(orderId, quote, deposit!, senderUtxos)
        : this.sourceTransactionResponse(route, orderId, quote);
    let created: { response: GatewayCreateOrderV3; written: Written };
    try {
      if (route !== 'onramp' && !limitedRoute) {
        const response = respond();
        created = { response, written: await write(db) };
      } else
        created = await db.transaction(async (tx) => {
          // A quote sent again is a duplicate before it takes what the write would come too late to
          // spare: an onramp's deposit address (its sequence does not roll back; two sent at the same
          // moment on PostgreSQL may still both take one) and a limited route's volume check.
          const existing = await orderByQuote(tx, quoteId);
          if (existing) throw duplicate(existing);
          if (limitedRoute) {
            await lockRouteVolume(tx, limitedRoute.srcChain, limitedRoute.src.address);
            const account = quote.sender ?? this.refundAddress(route, quote) ?? undefined;
            await checkVolumeLimits(tx, this.deps.catalogue, limitedRoute, {
              amount: BigInt(quote.inputAmount.amount),
              account,
              nowMs: clock.now(),
            });
          }
          const deposit = route === 'onramp' ? await this.deposit(tx, orderId) : undefined;
          const response = respond(deposit);
          return { response, written: await write(tx, deposit) };
        });
    } catch (error) {
      if (error instanceof OrderRefused) throw await this.refusal(error.reason, quoteId, quote.outputAmount, client);
      throw error;
    }
    // Committed: what keeps orders in memory (the view of orders, get-quote's volume sums) must see it.
    this.deps.events.changed(orderId, created.written.row);
    return created.response;
  }

  /** What a client is told of an order writeOrder refused, read once nothing of it was written. */
  private async refusal(
    reason: OrderRefused['reason'],
    quoteId: string,
    token: { chain: string; address: string },
    client: { id: string; keyed: boolean },
  ): Promise<DomainError> {
    const { db } = this.deps;
    // A quote sent again is a duplicate first, whichever refusal its statement met: its own order may
    // have taken the last of the liquidity, or the client's last place.
    const existing = await orderByQuote(db, quoteId);
    if (existing) return duplicate(existing);
    if (reason === 'client at limit') return this.unpaidOrderLimit(db, { id: client.id, limit: this.unpaidLimit(client) });
    return new DomainError('INSUFFICIENT_SOLVER_BALANCE', 'the market maker cannot fill this order now', {
      limit: await availableLiquidity(db, token.chain, token.address),
      token: token.address,
      chain_id: token.chain,
    });
  }

  /**
   * An unpaid order reserves liquidity until it expires: a client may hold only so many open
   * (orders.maxUnpaidPerClient), so that a few callers cannot empty a route for everyone else.
   */
  private unpaidLimit(client: { keyed: boolean }): number {
    const { maxUnpaidPerClient } = this.deps.config.orders;
    return client.keyed ? maxUnpaidPerClient.apiKey : maxUnpaidPerClient.anonymous;
  }

  /** The refusal of a client holding `limit` unpaid orders, with when its oldest expires. */
  private async unpaidOrderLimit(db: Queryable, client: { id: string; limit: number }): Promise<DomainError> {
    const { config, clock } = this.deps;
    const oldestMs = await oldestUnpaidOrderMs(db, client.id);
    const expiresMs = (oldestMs ?? clock.now()) + config.lifecycle.unpaidOrderExpirySeconds * 1000;
    return unpaidOrderLimit(client.limit, new Date(expiresMs).toISOString());
  }

  /** V4 quotes carry refundAddress; V3 offramps name the owner, who reclaims the funds. */
  private refundAddress(route: RouteKind, quote: QuoteBody): string | null {
    return quote.refundAddress ?? (route === 'offramp' ? quote.ownerAddress : undefined) ?? quote.sender ?? null;
  }

  private stored(chain: string, address: string | null | undefined): string | null {
    return address ? normalizeAddress(this.deps.catalogue.kindOf(chain), address) : null;
  }

  /** An onramp's deposit address and the OP_RETURN data that ties its payment to it. */
  private async deposit(tx: Queryable, orderId: string): Promise<Deposit> {
    const address = this.deps.depositAddresses.at(await nextDepositAddressIndex(tx));
    // Ties the payment to the order: register-tx looks for exactly these 32 bytes.
    return { address, opReturnData: createHash('sha256').update(`order:${orderId}`).digest('hex') };
  }

  private onrampResponse(
    orderId: string,
    quote: QuoteBody,
    { address, opReturnData }: Deposit,
    senderUtxos: Utxo[] | undefined,
  ): GatewayCreateOrderV3 {
    const { bitcoin } = this.deps;
    let psbtHex: string | null = null;
    if (quote.sender && senderUtxos) {
      try {
        psbtHex = buildPaymentPsbt({
          network: bitcoin.network,
          sender: quote.sender,
          utxos: senderUtxos,
          to: address,
          amount: BigInt(quote.inputAmount.amount),
          opReturnHex: opReturnData,
          feeRate: bitcoin.feeRate(),
        }).psbtHex;
      } catch (error) {
        if (!(error instanceof InsufficientFunds)) throw error;
        throw new DomainError('INSUFFICIENT_CONFIRMED_FUNDS', 'the sender has not enough confirmed bitcoin to fund the PSBT', {
          required: error.required.toString(),
          available: error.available.toString(),
        });
      }
    }
    return { onramp: { order_id: orderId, address, op_return_data: opReturnData, psbt_hex: psbtHex } } as GatewayCreateOrderV3;
  }

  private sourceTransactionResponse(route: 'offramp' | 'tokenSwap', orderId: string, quote: QuoteBody): GatewayCreateOrderV3 {
    const { catalogue, bitcoin } = this.deps;
    const chain = catalogue.chain(quote.inputAmount.chain)!;
    const slippage = BigInt(quote.slippage);
    const output = BigInt(quote.outputAmount.amount);
    const owner = this.refundAddress(route, quote)!;
    const tx = buildSourceTransaction({
      orderId,
      route,
      chain,
      txTo: quote.txTo!,
      token: quote.inputAmount.address,
      amount: BigInt(quote.inputAmount.amount),
      minAmountOut: (output * (10_000n - slippage)) / 10_000n,
      dstChain: quote.outputAmount.chain,
      recipient: quote.recipient,
      owner,
      payer: quote.sender ?? owner,
      affiliate: quote.affiliate ?? null,
      bitcoinNetwork: bitcoin.network,
    });
    return (
      route === 'offramp' ? { offramp: { order_id: orderId, tx } } : { tokenSwap: { order_id: orderId, tx } }
    ) as GatewayCreateOrderV3;
  }

  /**
   * register-tx: the raw payment of an onramp, checked against the order (amount to the deposit
   * address, OP_RETURN), its inputs looked up on the chain and their signatures verified, every
   * address screened, then the order claimed and the payment broadcast in one transaction, so two
   * registrations cannot both broadcast. Registering the same transaction again answers the same txid.
   */
  async registerTx(body: GatewayRegisterTxV4): Promise<GatewayRegisterTxResultV4> {
    const { db, bitcoin, config, clock } = this.deps;
    const { order_id: givenId, bitcoin_tx_hex: given } = body.onramp;
    const orderId = givenId.toLowerCase();
    const hex = given.toLowerCase();
    if (hex.startsWith(psbtMagicHex)) {
      throw invalidRequest('bitcoin_tx_hex is a PSBT; finalize it and send the raw transaction', {
        expected: 'raw transaction',
        actual: 'psbt',
      });
    }
    if (hex.length === 64)
      throw invalidRequest('bitcoin_tx_hex is a txid; send the raw signed transaction', { expected: 'raw transaction', actual: 'txid' });
    const order = await findOrder(db, orderId);
    if (!order || order.id !== orderId || order.route !== 'onramp') throw orderNotFound('no onramp order has this order_id');

    let payment: ReturnType<typeof parsePayment>;
    try {
      payment = parsePayment(hex, order.deposit_address!, bitcoin.network);
    } catch {
      throw invalidRequest('bitcoin_tx_hex is not a Bitcoin transaction', { expected: 'raw transaction', actual: 'unparseable' });
    }
    if (paymentRegistered(order, payment.txid)) return { onramp: { txid: payment.txid } };
    if (!payment.opReturns.includes(order.op_return_data!)) {
      throw invalidRequest("the transaction has no OP_RETURN output with the order's data", {
        expected: order.op_return_data!,
        actual: payment.opReturns[0] ?? 'none',
      });
    }
    if (payment.paid < BigInt(order.src_amount)) {
      throw new DomainError('INSUFFICIENT_PAYMENT_AMOUNT', "the transaction pays the order's address less than required", {
        expected: order.src_amount,
        actual: payment.paid.toString(),
      });
    }
    const prevouts = await this.prevouts(payment.transaction);
    const amountRefusal = amountProblem(payment.transaction, prevouts);
    if (amountRefusal) throw invalidRequest(`the transaction's amounts are refused: ${amountRefusal.actual}`, amountRefusal);
    const problem = inputSignatureProblem(payment.transaction, prevouts);
    if (problem)
      throw invalidRequest(`the transaction is not validly signed: ${problem}`, {
        expected: 'a signature that verifies against the spent output',
        actual: problem,
      });
    const spenders = prevouts
      .map((prevout) => addressOf(prevout.script, bitcoin.network))
      .filter((address): address is string => address !== undefined);
    const denied = [...new Set([...spenders, ...payment.outputAddresses])].filter((address) => config.denyList.includes(address));
    if (denied.length)
      throw new DomainError('NON_COMPLIANT_ADDRESSES', 'the transaction involves screened addresses', { addresses: denied });

    const registered = await db.transaction(async (tx) => {
      const seenMs = clock.now();
      const nextLookMs = this.deps.nextLookMs({ ...order, src_tx_hash: payment.txid, src_seen_ms: seenMs }, seenMs);
      const written = await recordOnce(tx, 'sourceSeen', order.id, payment.txid, seenMs, nextLookMs, this.deps.events.keepsWritten);
      if (!written) return undefined;
      await recordBitcoinTransaction(tx, payment.txid, hex, order.id);
      // Broadcast last: a failure rolls the claim back, and a second registration waits on the row.
      await bitcoin.broadcast(hex);
      return written;
    });
    if (registered) this.deps.events.changed(order.id, registered.row);
    // Nothing was broadcast: another request registered a payment first, or the order was settled
    // meanwhile (its payment window closed).
    else if (!paymentRegistered((await findOrder(db, orderId))!, payment.txid))
      throw new Error('register-tx: the order is open and unpaid, yet its payment was not recorded');
    return { onramp: { txid: payment.txid } };
  }

  /** The outputs the inputs spend; an outpoint the chain does not know, or one spent by two inputs, is refused. */
  private async prevouts(transaction: ReturnType<typeof parsePayment>['transaction']): Promise<Prevout[]> {
    const prevouts: Prevout[] = [];
    const spent = new Set<string>();
    for (const input of transaction.ins) {
      const txid = Buffer.from(input.hash).reverse().toString('hex');
      const outpoint = `${txid}:${input.index}`;
      if (spent.has(outpoint))
        throw invalidRequest(`two inputs spend the output ${outpoint}`, { expected: 'each output spent by one input', actual: outpoint });
      spent.add(outpoint);
      const prevout = await this.deps.bitcoin.prevout?.(txid, input.index);
      if (!prevout)
        throw invalidRequest(`input ${outpoint} spends an output the Bitcoin network does not know`, {
          expected: 'an unspent output known to the chain',
          actual: outpoint,
        });
      prevouts.push(prevout);
    }
    return prevouts;
  }

  /** The market maker's liquidity per token: what it holds and what open orders reserve. */
  liquidity(): ReturnType<typeof listLiquidity> {
    return listLiquidity(this.deps.db);
  }

  async get(idOrHash: string): Promise<GatewayOrderInfoV3> {
    const order = await this.deps.reads.find(idOrHash);
    if (!order) throw orderNotFound();
    return this.deps.view.render(order, this.deps.clock.now());
  }

  async list(userAddress: string, cursor: string | undefined, limit: number | undefined): Promise<GatewayOrdersPageV3> {
    const { config, cursors, db, view, clock } = this.deps;
    const max = config.orders.maxPageSize;
    const size = limit ?? config.orders.defaultPageSize;
    if (size > max) throw invalidRequest(`limit must be at most ${max}`, { max: String(max), actual: String(size) });
    const address = normalizeAddress(undefined, userAddress);
    const after = cursor === undefined ? undefined : cursors.decode(cursor, address);
    const rows = await listOrders(db, storedForms(address), size + 1, after);
    const page = rows.slice(0, size);
    const last = page[page.length - 1];
    return {
      orders: page.map((order: OrderRow) => view.render(order, clock.now())),
      nextCursor: rows.length > size && last ? cursors.encode(address, last.seq) : null,
    };
  }
}

/**
 * Whether this payment is the order's registered one (registering it again answers the same);
 * refused when the order has another, or is no longer waiting for one.
 */
function paymentRegistered(order: OrderRow, txid: string): boolean {
  if (order.src_tx_hash === txid) return true;
  if (order.src_tx_hash) throw invalidRequest('the order already has a registered payment', { expected: order.src_tx_hash, actual: txid });
  if (order.status !== 'inProgress') throw invalidRequest(`the order is ${order.status}`, { expected: 'inProgress', actual: order.status });
  return false;
}

const duplicate = (orderId: string) => new DomainError('DUPLICATE_ORDER', 'an order already exists for this quote', { message: orderId });
