/**
 * The sandbox controls of a simulated target, in one place so that their names can change here
 * only. They are not part of the document (the server exposes them outside /v3 and /v4), so they
 * are called directly rather than through the contract-checked gateway.
 *
 * Today's names are those of @swap-gateway/server (src/routes/sandbox.ts):
 *   POST /sandbox/orders/:id/source-sent { txHash? }       the user broadcast the source transaction
 *   POST /sandbox/orders/:id/outcome     { outcome }       force success | failed | refunded
 *   POST /sandbox/advance                { seconds }       move the clock and run a lifecycle pass
 *   POST /sandbox/faults                 { count }         the next `count` API requests fail inside the service
 */
export type ForcedOutcome = 'success' | 'failed' | 'refunded';

export interface Sandbox {
  sourceSent(orderId: string, txHash?: string): Promise<void>;
  forceOutcome(orderId: string, outcome: ForcedOutcome): Promise<void>;
  advance(seconds: number): Promise<void>;
  injectFaults(count: number): Promise<void>;
}

export function createSandbox(baseUrl: string): Sandbox {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox control POST ${path} answered ${response.status}: ${text.slice(0, 400)}`);
  };
  return {
    sourceSent: (orderId, txHash) => post(`/sandbox/orders/${encodeURIComponent(orderId)}/source-sent`, txHash ? { txHash } : {}),
    forceOutcome: (orderId, outcome) => post(`/sandbox/orders/${encodeURIComponent(orderId)}/outcome`, { outcome }),
    advance: (seconds) => post('/sandbox/advance', { seconds }),
    injectFaults: (count) => post('/sandbox/faults', { count }),
  };
}
