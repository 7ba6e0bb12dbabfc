/**
 * The sandbox controls of a simulated target, in one place so that their names can change here
 * only. They are not part of the document (the server exposes them outside /v3 and /v4), so they
 * are called directly rather than through the contract-checked gateway.
 *
 * Today's names are those of @swap-gateway/server (src/handlers/sandbox.ts):
 *   POST /sandbox/orders/:id/source-sent { txHash? }       the user broadcast the source transaction
 *   POST /sandbox/orders/:id/outcome     { outcome }       force success | failed | refunded
 *   POST /sandbox/advance                { seconds }       move the clock and run a lifecycle pass
 *   POST /sandbox/faults                 { count }         the next `count` API requests fail inside the service
 *   GET  /sandbox/liquidity                                 the market maker's liquidity (asked to find out whether a target has the controls)
 *
 * The target's API key goes with every call: a staging that offers the controls may require it.
 */
export type ForcedOutcome = 'success' | 'failed' | 'refunded';

export interface Sandbox {
  sourceSent(orderId: string, txHash?: string): Promise<void>;
  forceOutcome(orderId: string, outcome: ForcedOutcome): Promise<void>;
  /**
   * Ends an order the suite created and no longer needs, so that its reserved liquidity goes back
   * to the market maker: forced `failed` (a success would spend the liquidity). An order already
   * settled (409) needs nothing.
   */
  release(orderId: string): Promise<void>;
  advance(seconds: number): Promise<void>;
  injectFaults(count: number): Promise<void>;
}

const authorization = (apiKey: string | undefined): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {});

export function createSandbox(baseUrl: string, apiKey?: string): Sandbox {
  const post = async (path: string, body: unknown, accepted: number[] = []) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authorization(apiKey) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    if (!response.ok && !accepted.includes(response.status)) throw new Error(`sandbox control POST ${path} answered ${response.status}: ${text.slice(0, 400)}`);
  };
  const outcome = (orderId: string) => `/sandbox/orders/${encodeURIComponent(orderId)}/outcome`;
  return {
    sourceSent: (orderId, txHash) => post(`/sandbox/orders/${encodeURIComponent(orderId)}/source-sent`, txHash ? { txHash } : {}),
    forceOutcome: (orderId, forced) => post(outcome(orderId), { outcome: forced }),
    release: (orderId) => post(outcome(orderId), { outcome: 'failed', reason: 'released by the contract suite' }, [409]),
    advance: (seconds) => post('/sandbox/advance', { seconds }),
    injectFaults: (count) => post('/sandbox/faults', { count }),
  };
}

/** Whether the target has the sandbox controls: its liquidity control answers as the sandbox's does. */
export async function offersSandboxControls(baseUrl: string, apiKey?: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/sandbox/liquidity`, { headers: authorization(apiKey), signal: AbortSignal.timeout(5_000) });
    const body = response.ok ? ((await response.json()) as { liquidity?: unknown }) : undefined;
    return Array.isArray(body?.liquidity);
  } catch {
    return false;
  }
}
