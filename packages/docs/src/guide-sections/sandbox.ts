/**
 * The sandbox page's generated sections: its settings, read from the server's built-in configuration
 * (`packages/server/config/sandbox.json`), and its controls (`/sandbox/...`), written here for
 * integrators (what each does, a curl line that runs as printed) and checked against the server's
 * own list of them (the table of the section "Sandbox control" of `packages/server/README.md`): the
 * build fails when one lists a control the other lacks. The docs test runs every curl line of the
 * built page against a sandbox server.
 */
import { code, escapeCell, fence, table } from '../markdown-text.js';

export interface SandboxControl {
  /** `METHOD /sandbox/...`, path parameters as `{id}`. */
  call: string;
  title: string;
  /** The JSON body it takes, as the server's README writes it (`?` marks an optional field). */
  body?: string;
  /** One line, for the summary table. */
  summary: string;
  /** What it does, for an integrator. */
  text: string;
  /** Runs as printed: the base address defaults to the local sandbox; `$ORDER_ID` is an order of yours. */
  curl: string;
}

/** The local sandbox unless GATEWAY_URL is set. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, printed as is.
const base = '${GATEWAY_URL:-http://127.0.0.1:8080}';
const json = (method: string, path: string, body: string) =>
  `curl -sS --fail-with-body -X ${method} "${base}${path}" \\\n  -H 'Content-Type: application/json' -d '${body}'`;

/** In the order of the page: orders, the clock, Bitcoin, the market, faults. */
export const sandboxControls: SandboxControl[] = [
  {
    call: 'POST /sandbox/orders/{id}/source-sent',
    title: 'The user sent the source transaction',
    body: '{ "txHash"? }',
    summary: 'An offramp or token swap: its source transaction was broadcast.',
    text:
      'The sandbox has no real EVM, Tron or Solana chain to watch: this tells it that the user broadcast the source ' +
      "transaction of an offramp or a token swap (with `txHash`, in the chain's format, or one it makes up). The order " +
      'then confirms after the confirmation delay and settles as on a real chain. An onramp is paid with register-tx instead.',
    curl: json('POST', '/sandbox/orders/$ORDER_ID/source-sent', '{}'),
  },
  {
    call: 'POST /sandbox/orders/{id}/outcome',
    title: 'Settle, fail or refund an order now',
    body: '{ "outcome": "success" | "failed" | "refunded", "reason"? }',
    summary: 'An order in progress ends at once, the way you choose.',
    text:
      'Ends an order in progress at once: `success` (with its `received_tokens`), `failed` (with the `reason` given) or ' +
      '`refunded` (with its `refunded_tokens`), so that you can see how your integration shows each ending. `409` when ' +
      'the order is already ending (its payout or refund under way) or ended.',
    curl: json('POST', '/sandbox/orders/$ORDER_ID/outcome', '{ "outcome": "refunded" }'),
  },
  {
    call: 'POST /sandbox/advance',
    title: 'Move the clock forward',
    body: '{ "seconds"? }',
    summary: 'Time passes: payments confirm, payouts complete, quotes and unpaid orders expire.',
    text:
      'Moves the sandbox clock forward (0 to 315360000 seconds) and runs its lifecycle once: registered payments ' +
      'confirm, payouts complete, quotes expire and unpaid orders fail as `expired`, without waiting in real time.',
    curl: json('POST', '/sandbox/advance', '{ "seconds": 60 }'),
  },
  {
    call: 'GET /sandbox/bitcoin/utxos/{address}',
    title: "A Bitcoin address's coins",
    summary: 'The outputs an address owns on the simulated Bitcoin chain.',
    text:
      'Every Bitcoin address owns three confirmed outputs on the simulated chain. This lists them (`txid`, `vout`, ' +
      "`value` in sats as a string, and the funding `transactionHex`) as a wallet's UTXO source does, so that a wallet " +
      'can build and sign a payment of its own: the `utxos` option of the bitcoinjs signer. `400 INVALID_REQUEST` for ' +
      'what is not a Bitcoin address of the network.',
    curl: `curl -sS --fail-with-body "${base}/sandbox/bitcoin/utxos/bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged"`,
  },
  {
    call: 'GET /sandbox/liquidity',
    title: "The market maker's liquidity",
    summary: 'What the market maker holds, and what open orders reserve.',
    text: "The market maker's `total` and `reserved` amount of every token: an order reserves liquidity when it is created and spends or releases it when it ends.",
    curl: `curl -sS --fail-with-body "${base}/sandbox/liquidity"`,
  },
  {
    call: 'GET /sandbox/prices',
    title: 'The prices quotes use',
    summary: 'The USD price of every priced token, and whether prices move.',
    text: 'The USD price of every priced token (`chain`, `token`, `symbol`, `priceUsd`) that quotes, rates and USD values use now, and the random walk when prices move by themselves.',
    curl: `curl -sS --fail-with-body "${base}/sandbox/prices"`,
  },
  {
    call: 'POST /sandbox/prices',
    title: "Set a token's price",
    body: '{ "chain", "token", "priceUsd" }',
    summary: "One token's USD price changes.",
    text:
      'Sets the USD price of one token (a decimal string, at most 8 decimals). Quotes issued afterwards use it; a quote ' +
      'issued before and passed back unchanged keeps its price until it expires. An offramp or token-swap quote sent back ' +
      'without its `signedQuoteData`, as clients generated from the public V4 document send it, is quoted again at the new ' +
      'price, and create-order refuses it with `INVALID_ORDER_ARGS` naming each value that moved: how your integration ' +
      'handles a moved price.',
    curl: json(
      'POST',
      '/sandbox/prices',
      '{ "chain": "bitcoin", "token": "0x0000000000000000000000000000000000000000", "priceUsd": "98000" }',
    ),
  },
  {
    call: 'POST /sandbox/prices/walk',
    title: 'Let prices move by themselves',
    body: '{ "intervalSeconds", "maxStepBps", "maxDeviationBps"? }',
    summary: 'Prices take a random step every few seconds.',
    text:
      'Every `intervalSeconds` each price takes a random step of at most `maxStepBps` basis points, staying within ' +
      '`maxDeviationBps` (default 1000) of its base (the configured price, or the one last set). Tokens of one price ' +
      "move together: wrapped BTC keeps BTC's price.",
    curl: json('POST', '/sandbox/prices/walk', '{ "intervalSeconds": 5, "maxStepBps": 20 }'),
  },
  {
    call: 'DELETE /sandbox/prices/walk',
    title: 'Stop the prices moving',
    summary: 'Prices stay where they are until set.',
    text: 'Stops the random walk: prices stay where they are until one is set.',
    curl: `curl -sS --fail-with-body -X DELETE "${base}/sandbox/prices/walk"`,
  },
  {
    call: 'POST /sandbox/faults',
    title: 'Make the next requests fail',
    body: '{ "count"? }',
    summary: 'The next requests to /v3 and /v4 fail with 500.',
    text:
      'The next `count` requests (default 1) under `/v3` and `/v4` fail as an unexpected fault of the service, ' +
      '`500 INTERNAL_ERROR`: try your retries and error handling. (The TypeScript client retries reads on a 500 by itself.)',
    curl: json('POST', '/sandbox/faults', '{ "count": 1 }'),
  },
];

/** The controls the server's README lists (`METHOD /sandbox/...` of each row of its table), path parameters as `{name}`. */
export function controlsOfServerReadme(readme: string): string[] {
  const section = /^## Sandbox control\b[^\n]*\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (!section)
    throw new Error('packages/server/README.md has no section "Sandbox control": the sandbox page cannot be checked against it');
  return [...section.matchAll(/^\| `((?:GET|POST|PUT|PATCH|DELETE) \/sandbox\/[^`\s]*)`/gm)].map((match) => match[1] ?? '');
}

/** The summary table and one section per control, after checking the list against the server's README. */
export function sandboxControlsMarkdown(serverReadme: string): string {
  const documented = new Set(sandboxControls.map((control) => control.call));
  const served = new Set(controlsOfServerReadme(serverReadme));
  const missing = [...served].filter((call) => !documented.has(call));
  const gone = [...documented].filter((call) => !served.has(call));
  if (missing.length || gone.length)
    throw new Error(
      `the sandbox page and packages/server/README.md list different controls: ${[
        ...missing.map((call) => `${call} is not on the page (src/guide-sections/sandbox.ts)`),
        ...gone.map((call) => `${call} is not in the server's README`),
      ].join('; ')}`,
    );
  const summary = table(
    ['Control', 'What it does'],
    sandboxControls.map((control) => [code(control.call), escapeCell(control.summary)]),
  );
  const sections = sandboxControls.map((control) =>
    [
      `### ${control.title}`,
      '',
      `${code(control.call)}${control.body ? ` with ${code(control.body)}` : ''}`,
      '',
      control.text,
      '',
      `<div class="sandbox-control" data-control="${control.call}">`,
      '',
      fence('sh', control.curl),
      '',
      '</div>',
    ].join('\n'),
  );
  return [summary, ...sections].join('\n\n');
}

interface SandboxConfig {
  quoteTtlSeconds: number;
  lifecycle: { confirmationDelaySeconds: number; payoutDelaySeconds: number; unpaidOrderExpirySeconds: number; tickMs: number };
  bitcoin: { network: string; simulatedBalanceSats: string };
  orders: { defaultPageSize: number; maxPageSize: number };
  rateLimits: { windowSeconds: number; anonymous: number; apiKey: number };
}

const seconds = (value: number) => (value % 60 === 0 && value >= 120 ? `${value / 60} minutes` : `${value} s`);

/** What `pnpm server` runs with, from the server's built-in configuration. */
export function sandboxSettingsMarkdown(configText: string): string {
  const config = JSON.parse(configText) as SandboxConfig;
  const { lifecycle, bitcoin, orders, rateLimits } = config;
  const balance = BigInt(bitcoin.simulatedBalanceSats);
  return table(
    ['Setting', 'In the sandbox'],
    [
      ['A quote is valid for', seconds(config.quoteTtlSeconds)],
      ['A registered payment or a sent source transaction confirms after', seconds(lifecycle.confirmationDelaySeconds)],
      ['The payout of a confirmed order completes after', seconds(lifecycle.payoutDelaySeconds)],
      ['An order nobody pays fails as `expired` after', seconds(lifecycle.unpaidOrderExpirySeconds)],
      ['The sandbox moves its orders on every', `${lifecycle.tickMs} ms`],
      ['Bitcoin network (address format)', `${code(bitcoin.network)} (\`bc1...\` addresses)`],
      ['Coins of every Bitcoin address', `${balance} to ${balance * 2n} sats in 3 confirmed outputs (50%, 30%, 20%), never spent`],
      ['Orders per page (default, most)', `${orders.defaultPageSize}, ${orders.maxPageSize}`],
      [
        'Requests a minute (without, with a key)',
        `${(rateLimits.anonymous * 60) / rateLimits.windowSeconds}, ${(rateLimits.apiKey * 60) / rateLimits.windowSeconds}`,
      ],
    ].map(([setting = '', value = '']) => [escapeCell(setting), value]),
  );
}
