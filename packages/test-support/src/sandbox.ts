/**
 * The sandbox server (@swap-gateway/server) as the tests of other packages start it, and the one
 * client of its controls. The controls are not part of the document (the server serves them outside
 * /v3 and /v4, packages/server/src/handlers/sandbox.ts), so every test calls them through here and
 * their names can change here only:
 *   POST /sandbox/orders/:id/source-sent { txHash? }       the user broadcast the source transaction
 *   POST /sandbox/orders/:id/outcome     { outcome, reason? } force success | failed | refunded
 *   POST /sandbox/advance                { seconds }       move the clock and run a lifecycle pass
 *   POST /sandbox/faults                 { count }         the next `count` API requests fail inside the service
 *   GET  /sandbox/prices                                    every priced token's USD price, and the random walk
 *   POST /sandbox/prices                 { chain, token, priceUsd } set one token's USD price
 *   POST /sandbox/prices/walk            { intervalSeconds, maxStepBps, maxDeviationBps? } prices move by themselves
 *   DELETE /sandbox/prices/walk                             prices stay until set
 *   GET  /sandbox/bitcoin/utxos/:address                    a wallet's outputs on the simulated chain
 *   GET  /sandbox/liquidity                                 the market maker's liquidity
 * The API key, when given, goes with every call: a staging that offers the controls may require it;
 * so does the operator's sandbox key, in X-Sandbox-Key, which a sandbox reached from off its own
 * machine requires (the server's `sandboxOperatorKey`).
 */

/** How a test's sandbox moves its orders on. */
const sandboxLifecycles = {
  /** Nothing moves until the test advances the clock (`advance`, `settle`): confirmation and payout each 30 s away. */
  drivenByTest: { confirmationDelaySeconds: 30, payoutDelaySeconds: 30, tickMs: 0 },
  /** Orders settle by themselves within a second, for programs that wait for an order (the docs samples). */
  settlingAtOnce: { confirmationDelaySeconds: 0, payoutDelaySeconds: 0, tickMs: 200 },
} as const;

/** `startServer` options of a test's sandbox: loopback, a free port, in memory, moving on as `lifecycle` says. */
export function sandboxServerOptions(lifecycle: keyof typeof sandboxLifecycles) {
  return { host: '127.0.0.1', port: 0, dataDir: ':memory:', config: { lifecycle: { ...sandboxLifecycles[lifecycle] } } };
}

export type ForcedOutcome = 'success' | 'failed' | 'refunded';

interface SandboxUtxo {
  txid: string;
  vout: number;
  /** Satoshis, as a decimal string. */
  value: string;
  transactionHex: string;
}

export interface SandboxPrice {
  chain: string;
  token: string;
  symbol: string;
  /** USD price of one whole token, a decimal string. */
  priceUsd: string;
}

interface LiquidityRow {
  chain: string;
  token: string;
  total: string;
  reserved: string;
}

export interface SandboxControls {
  sourceSent(orderId: string, txHash?: string): Promise<void>;
  forceOutcome(orderId: string, outcome: ForcedOutcome): Promise<void>;
  /**
   * Ends an order a test created and no longer needs, so that its reserved liquidity goes back to
   * the market maker: forced `failed` (a success would spend the liquidity). An order already
   * settled (409) needs nothing.
   */
  release(orderId: string, reason: string): Promise<void>;
  /** Moves the clock and runs one lifecycle pass. */
  advance(seconds: number): Promise<void>;
  /** Moves a `drivenByTest` sandbox past its confirmation and payout delays, one lifecycle pass per step. */
  settle(): Promise<void>;
  injectFaults(count: number): Promise<void>;
  bitcoinUtxos(address: string): Promise<SandboxUtxo[]>;
  liquidity(): Promise<LiquidityRow[]>;
  prices(): Promise<SandboxPrice[]>;
  setPrice(chain: string, token: string, priceUsd: string): Promise<void>;
}

/** What a caller of the controls presents: the API key the target issued, and the operator's sandbox key. */
export interface SandboxCredentials {
  apiKey?: string;
  sandboxKey?: string;
}

const credentialHeaders = ({ apiKey, sandboxKey }: SandboxCredentials): Record<string, string> => ({
  ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  ...(sandboxKey ? { 'x-sandbox-key': sandboxKey } : {}),
});

export function sandboxControls(baseUrl: string, credentials: SandboxCredentials = {}): SandboxControls {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown, accepted: number[] = []): Promise<T | undefined> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...credentialHeaders(credentials), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    if (accepted.includes(response.status)) return undefined;
    if (!response.ok) throw new Error(`sandbox control ${method} ${path} answered ${response.status}: ${text.slice(0, 400)}`);
    return JSON.parse(text) as T;
  };
  const post = async (path: string, body: unknown, accepted?: number[]) => void (await call('POST', path, body, accepted));
  const order = (orderId: string, control: string) => `/sandbox/orders/${encodeURIComponent(orderId)}/${control}`;
  const advance = (seconds: number) => post('/sandbox/advance', { seconds });
  return {
    sourceSent: (orderId, txHash) => post(order(orderId, 'source-sent'), txHash ? { txHash } : {}),
    forceOutcome: (orderId, outcome) => post(order(orderId, 'outcome'), { outcome }),
    release: (orderId, reason) => post(order(orderId, 'outcome'), { outcome: 'failed', reason }, [409]),
    advance,
    async settle() {
      for (let step = 0; step < 3; step++) await advance(sandboxLifecycles.drivenByTest.payoutDelaySeconds + 1);
    },
    injectFaults: (count) => post('/sandbox/faults', { count }),
    bitcoinUtxos: async (address) =>
      (await call<{ utxos: SandboxUtxo[] }>('GET', `/sandbox/bitcoin/utxos/${encodeURIComponent(address)}`))!.utxos,
    liquidity: async () => (await call<{ liquidity: LiquidityRow[] }>('GET', '/sandbox/liquidity'))!.liquidity,
    prices: async () => (await call<{ prices: SandboxPrice[] }>('GET', '/sandbox/prices'))!.prices,
    setPrice: (chain, token, priceUsd) => post('/sandbox/prices', { chain, token, priceUsd }),
  };
}

/** Whether the target at `baseUrl` has the sandbox controls: its liquidity control answers as the sandbox's does. */
export async function offersSandboxControls(baseUrl: string, credentials: SandboxCredentials = {}): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/sandbox/liquidity`, {
      headers: credentialHeaders(credentials),
      signal: AbortSignal.timeout(5_000),
    });
    const body = response.ok ? ((await response.json()) as { liquidity?: unknown }) : undefined;
    return Array.isArray(body?.liquidity);
  } catch {
    return false;
  }
}
