/**
 * Helpers for the one-key objects of the API: which route a quote or create-order result is, which
 * state an order is in, and the object under that key, as discriminated unions TypeScript narrows.
 */
import type {
  GatewayCreateOrderV3,
  GatewayOrderInfoV3,
  GatewayOrderState,
  GatewayOrderStatusV3,
  GatewayQuoteV3,
  GatewayQuoteV4,
  GatewayRegisterTxResultV4,
  GatewayRoute,
} from '@swap-gateway/types';

/** `{ route: 'onramp', value: ... } | ...`: the key of a one-key object and what it holds. */
export type KeyedEntry<U, Tag extends string> = U extends unknown
  ? { [K in keyof U]: { [T in Tag]: K } & { value: U[K] } }[keyof U]
  : never;

const routes = ['onramp', 'offramp', 'tokenSwap'] as const satisfies readonly GatewayRoute[];
const states = ['inProgress', 'success', 'failed', 'refunded'] as const satisfies readonly GatewayOrderState[];
const settledStates: readonly GatewayOrderState[] = ['success', 'failed', 'refunded'];

/**
 * The route of a quote or create-order result and its inner object:
 * `const { route, value } = routeOf(order); if (route === 'onramp') pay(value.address);`
 */
export function routeOf<T extends GatewayQuoteV4 | GatewayQuoteV3 | GatewayCreateOrderV3>(oneKey: T): KeyedEntry<T, 'route'> {
  return entryOf(oneKey, routes, 'route') as KeyedEntry<T, 'route'>;
}

/** Whether a quote or create-order result is of one route; narrows it. */
export function isRoute<T extends GatewayQuoteV4 | GatewayQuoteV3 | GatewayCreateOrderV3, R extends GatewayRoute>(
  oneKey: T,
  route: R,
): oneKey is Extract<T, Record<R, unknown>> {
  return route in oneKey;
}

/**
 * The state of an order (or of its status object) and what that state holds:
 * `const { state, value } = stateOf(order); if (state === 'success') value.received_tokens`.
 */
export function stateOf(order: GatewayOrderInfoV3 | GatewayOrderStatusV3): KeyedEntry<GatewayOrderStatusV3, 'state'> {
  return entryOf(statusObject(order), states, 'state') as KeyedEntry<GatewayOrderStatusV3, 'state'>;
}

/**
 * Whether an order has reached a final state: `success`, `failed` or `refunded`. The API description
 * does not show the transitions, so which states are final is this client's choice (the sandbox
 * server never moves an order out of these three; see getOrderV4 in the document).
 */
export function isSettled(order: GatewayOrderInfoV3 | GatewayOrderStatusV3): boolean {
  const status = statusObject(order);
  return settledStates.some((state) => state in status);
}

/**
 * The txid of a register-tx answer: the one of `{ onramp: { txid } }`, or a plain string that is a
 * txid (64 hex digits). Undefined for any other string: the document does not say what the string
 * holds, and the public gateway's document answers `ok`.
 */
export function registeredTxid(result: GatewayRegisterTxResultV4): string | undefined {
  if (typeof result !== 'string') return result.onramp.txid;
  return /^[0-9a-fA-F]{64}$/.test(result) ? result : undefined;
}

function statusObject(order: GatewayOrderInfoV3 | GatewayOrderStatusV3): GatewayOrderStatusV3 {
  return 'status' in order ? order.status : order;
}

function entryOf(oneKey: object, keys: readonly string[], tag: string): Record<string, unknown> {
  const key = keys.find((candidate) => candidate in oneKey);
  if (key === undefined) {
    throw new TypeError(`expected an object with one of the keys ${keys.join(', ')}; got ${Object.keys(oneKey).join(', ') || 'no key'}`);
  }
  return { [tag]: key, value: (oneKey as Record<string, unknown>)[key] };
}
