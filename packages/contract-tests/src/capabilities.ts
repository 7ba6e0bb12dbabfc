/**
 * What a target can do. A test declares what it needs; against a target that lacks it, the test is
 * skipped and the reporter prints the reason.
 */
export const allCapabilities = [
  /** Accepts requests that create or change orders (create-order, register-tx). */
  'writes',
  /** Remembers what it was told: an order created is found again, pages are real pages. */
  'keeps state',
  /** Applies the description's rules beyond the schemas (slippage defaults, affiliates, refund address, address encodings, raw transactions). */
  'applies business rules',
  /** Has the sandbox controls that move orders forward on the simulated chains (the clock of every order: a local target only). */
  'can advance the simulated chain',
  /**
   * Has the sandbox control that settles one order (`POST /sandbox/orders/{id}/outcome`): the suite
   * forces outcomes with it and releases the liquidity its own orders reserved. Touches only the
   * suite's orders, so a shared staging may offer it; found there by asking `GET /sandbox/liquidity`.
   */
  'can settle its own orders',
  /**
   * A local target whose rate limit the suite may spend, from another loopback address (127.0.0.2),
   * in a bounded burst. Never staging.
   */
  'can be driven to its rate limit',
  /** Has the sandbox control that makes its next requests fail inside the service, to show the documented 500. */
  'can inject faults',
  /**
   * Has the sandbox controls of the market (`GET /sandbox/prices`, `POST /sandbox/prices`): the suite
   * moves a token's USD price, which every user of the target sees, and puts it back.
   */
  'can move prices',
  /**
   * Every error body carries `code`, `error` and `details` (null when there is nothing to add), as
   * the local implementations promise. The document itself requires only `code` of a V4 error
   * (`error` of a register-tx error), which is all staging is held to.
   */
  'sends full error bodies',
  /** Answers any documented response on request (`Prefer: code=..., example=...`), as the Prism mock does. */
  'serves examples on request',
] as const;

export type Capability = (typeof allCapabilities)[number];

export function parseCapabilities(list: string): Capability[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(allCapabilities as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`GATEWAY_CAPABILITIES: unknown ${unknown.join(', ')}; known: ${allCapabilities.join(', ')}`);
  return names as Capability[];
}
