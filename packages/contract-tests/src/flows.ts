/**
 * Building blocks of the flow scenarios, over the contract-checked gateway: the target's routes,
 * addresses encoded for each chain, quoting a route, creating an order, reading an order.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestWallet } from './bitcoin.js';
import type { Gateway } from './gateway.js';
import type { SandboxControls } from '@swap-gateway/test-support/sandbox';
import type { GatewayRoute } from '@swap-gateway/types';

export interface RouteEntry {
  srcChain: string;
  srcToken: string;
  dstChain: string;
  dstToken: string;
}

export type ChainKind = 'bitcoin' | 'evm' | 'tron' | 'solana';

/** The tag of `GatewayTxData` each kind of source chain must get. */
export const txTypeOf = { evm: 'evm', tron: 'tron', solana: 'solana' } as const;

export const routeKeyOf = (route: RouteEntry): GatewayRoute =>
  route.srcChain === 'bitcoin' ? 'onramp' : route.dstChain === 'bitcoin' ? 'offramp' : 'tokenSwap';

/** A chain's kind, read from how its tokens are encoded (the description: 0x hex on EVM, Base58 on Tron and Solana). */
export function chainKind(chain: string, token: string): ChainKind {
  if (chain === 'bitcoin') return 'bitcoin';
  if (/^0x[0-9a-fA-F]{40}$/.test(token)) return 'evm';
  if (/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(token)) return 'tron';
  return 'solana';
}

export const randomEvmAddress = () => `0x${randomBytes(20).toString('hex')}`;
export const randomEvmHash = () => `0x${randomBytes(32).toString('hex')}`;

// Well-formed addresses of the document's examples, for chains whose addresses the suite does not derive.
const tronAddress = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const solanaAddress = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

/** An address on a chain of the given kind: the wallet's on Bitcoin, a fresh one on EVM. */
export function addressOn(kind: ChainKind, wallet: TestWallet): string {
  switch (kind) {
    case 'bitcoin':
      return wallet.address;
    case 'evm':
      return randomEvmAddress();
    case 'tron':
      return tronAddress;
    case 'solana':
      return solanaAddress;
  }
}

export async function listRoutes(gateway: Gateway): Promise<RouteEntry[]> {
  const { body } = await gateway.send<unknown>({ path: '/v4/get-routes' });
  // The document types the V4 body as the V2 array of route entries (x-inferred); check it at run time too.
  if (!Array.isArray(body)) throw new Error(`get-routes did not answer the V2 array of routes: ${JSON.stringify(body).slice(0, 200)}`);
  return body as RouteEntry[];
}

export function findRoute(routes: RouteEntry[], key: GatewayRoute, kind?: ChainKind): RouteEntry {
  const found = routes.find((route) => routeKeyOf(route) === key && (!kind || chainKind(route.srcChain, route.srcToken) === kind));
  if (!found) throw new Error(`the target lists no ${key} route${kind ? ` from a ${kind} chain` : ''}`);
  return found;
}

export interface QuoteOptions {
  wallet: TestWallet;
  amount?: string;
  recipient?: string;
  sender?: string;
  slippage?: string;
  affiliates?: string;
  /** Omit the refund address (a quote that cannot be executed). */
  withoutRefundAddress?: boolean;
}

export type Quote = Partial<Record<GatewayRoute, Record<string, unknown>>>;

export function quoteQuery(route: RouteEntry, options: QuoteOptions): Record<string, string | undefined> {
  const srcKind = chainKind(route.srcChain, route.srcToken);
  return {
    srcChain: route.srcChain,
    dstChain: route.dstChain,
    srcToken: route.srcToken,
    dstToken: route.dstToken,
    recipient: options.recipient ?? addressOn(chainKind(route.dstChain, route.dstToken), options.wallet),
    amount: options.amount ?? (srcKind === 'bitcoin' ? '200000' : '50000000'),
    sender: options.sender,
    slippage: options.slippage,
    affiliates: options.affiliates,
    refundAddress: options.withoutRefundAddress ? undefined : addressOn(srcKind, options.wallet),
  };
}

/**
 * Quotes a route with a small amount, so that a long-lived gateway's liquidity lasts: without an
 * amount of its own, the suite asks for one unit of the source token; a gateway with a minimum
 * refuses that and names the minimum, and the suite asks for twice it, as a client would (the suite
 * cannot know each token's decimals). The minimum is read in the shape the document ties to the
 * code: `details.expected` of INSUFFICIENT_AMOUNT (the route's smallest amount), or `details.minimum`
 * of QUOTE_AMOUNT_TOO_LOW (the smallest output, a guess for the input). A gateway that names no
 * minimum is asked for the default amount of `quoteQuery`.
 */
export async function getQuote(gateway: Gateway, route: RouteEntry, options: QuoteOptions): Promise<Quote> {
  const query = quoteQuery(route, options);
  const ask = (amount: string | undefined) =>
    gateway.send<Quote & { code?: string; details?: { expected?: string; minimum?: string } | null }>({
      path: '/v4/get-quote',
      query: { ...query, amount },
    });
  let answer = await ask(options.amount ?? '1');
  if (answer.status === 400 && !options.amount) {
    const { code, details } = answer.body;
    const minimum = code === 'INSUFFICIENT_AMOUNT' ? details?.expected : code === 'QUOTE_AMOUNT_TOO_LOW' ? details?.minimum : undefined;
    answer = await ask(minimum && /^[0-9]+$/.test(minimum) ? String(BigInt(minimum) * 2n) : query.amount);
  }
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(Object.keys(answer.body)).toEqual([routeKeyOf(route)]);
  return answer.body;
}

export interface CreatedOrder {
  order_id: string;
  address?: string;
  op_return_data?: string | null;
  psbt_hex?: string | null;
  tx?: { type: string; [field: string]: unknown };
}

/** The gateway's market maker cannot fill the order now: a state of the gateway, not a break of the contract (see `contractTest`). */
export class LiquidityShortage extends Error {}

/** Every order this test file created, so that it can release them at the end (`releaseOrders`). */
const created: string[] = [];

export async function createOrder(gateway: Gateway, quote: unknown, version: 'v4' | 'v3' = 'v4'): Promise<CreatedOrder> {
  const answer = await gateway.send<Record<string, CreatedOrder> & { code?: string; details?: { limit?: string; token?: string } | null }>({
    method: 'POST',
    path: `/${version}/create-order`,
    body: quote,
  });
  const [key] = Object.keys(quote as object);
  if (answer.status === 400 && answer.body.code === 'INSUFFICIENT_SOLVER_BALANCE') {
    const { limit, token } = answer.body.details ?? {};
    throw new LiquidityShortage(
      `no liquidity for one more ${key} order on ${gateway.url} (create-order answered INSUFFICIENT_SOLVER_BALANCE${limit ? `, ${limit} of ${token} left` : ''})`,
    );
  }
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  expect(Object.keys(answer.body)).toEqual([key]);
  const order = answer.body[key!]!;
  created.push(order.order_id);
  return order;
}

/**
 * Releases the liquidity the file's orders reserved, through the sandbox control that ends an
 * order (forced `failed`); a gateway without it expires them on its own schedule.
 */
export async function releaseOrders(sandbox: SandboxControls): Promise<void> {
  for (const id of created.splice(0)) await sandbox.release(id, 'released by the contract suite');
}

export interface OrderInfo {
  id: string;
  srcInfo: { txHash: string; chain: string };
  dstInfo: { chain: string };
  status: Record<string, unknown>;
}

export async function getOrder(gateway: Gateway, id: string, version: 'v4' | 'v3' = 'v4'): Promise<OrderInfo> {
  const answer = await gateway.send<OrderInfo>({ path: `/${version}/get-order/${encodeURIComponent(id)}` });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

export const statusOf = (order: OrderInfo) => Object.keys(order.status)[0];
