/**
 * Every code sample runs against the sandbox server (@swap-gateway/server, started here with its
 * built-in sandbox configuration, in memory, settling orders within a second): the curl scripts with
 * curl, the TypeScript programs with tsx, the Python scripts with the machine's python3. The
 * samples of an operation print its answer, which must validate against the operation's success
 * response in the bundle; the flows of the guides (quote → order → register → wait, iterating
 * orders, handling an error, the API key) print what their comments say. Every sample file under
 * samples/ must have run by the end, and the test prints how many ran per language.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createSchemaValidator, jsonContent, loadBundle } from '@swap-gateway/openapi';
import { startServer, type RunningServer } from '@swap-gateway/server';
import { sandboxControls, sandboxServerOptions } from '@swap-gateway/test-support/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedOperations } from '../src/document.js';
import { sampleLanguages, samplesAt, samplesDirectory, samplesOf, type Sample, type SampleLanguage } from '../src/samples.js';
import { onrampQuoteParameters, testWallet, walletScript } from './wallet.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;

const bundle = loadBundle('gateway');
const validator = createSchemaValidator(bundle);
const operations = publishedOperations(bundle);

const onrampQuery = (extra: Record<string, string> = {}) => new URLSearchParams({ ...onrampQuoteParameters, ...extra });

let server: RunningServer;
const ran = new Map<SampleLanguage['label'], string[]>(sampleLanguages.map((language) => [language.label, []]));

async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(server.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer as T;
}

/** A fresh onramp order (with a PSBT when a sender is given). */
async function onrampOrder(sender?: string): Promise<{ order_id: string; psbt_hex: string | null }> {
  const quote = await api('GET', `/v4/get-quote?${onrampQuery(sender ? { sender, refundAddress: sender } : {})}`);
  return (await api('POST', '/v4/create-order', quote)).onramp;
}

interface Setup {
  env?: Record<string, string | undefined>;
  files?: Record<string, string>;
}

/** What a sample needs from the sandbox before it runs: an order to read, a transaction to register, a quote to order. */
const setups: Record<string, (language: SampleLanguage) => Promise<Setup>> = {
  getOrderV4: async () => ({ env: { ORDER_ID: (await onrampOrder()).order_id } }),
  getOrderV3: async () => ({ env: { ORDER_ID: (await onrampOrder()).order_id } }),
  registerTxV4: async (language) => {
    const wallet = testWallet(`register-tx ${language.key}`);
    const order = await onrampOrder(wallet.address);
    return { env: { ORDER_ID: order.order_id, SIGNED_TX_HEX: await wallet.signPsbt(order.psbt_hex!) } };
  },
  createOrderV3: async () => ({ files: { 'quote-v3.json': JSON.stringify(await api('GET', `/v4/get-quote?${onrampQuery()}`), null, 2) } }),
  'wait-for-order': async () => {
    const { order_id } = await onrampOrder();
    await sandboxControls(server.url).forceOutcome(order_id, 'success');
    return { env: { ORDER_ID: order_id } };
  },
  'onramp-flow': async (language) => {
    const seed = `onramp flow ${language.key}`;
    return {
      env: {
        BITCOIN_ADDRESS: testWallet(seed).address,
        WALLET_SEED: seed,
        SIGN_PSBT_COMMAND: `"${process.execPath}" --import ${tsxLoader} "${walletScript}"`,
      },
    };
  },
};

/** Runs one sample in a folder of its own; resolves with what it printed, rejects (failing the test) when it fails. */
async function runSample(sample: Sample, setup: Setup = {}): Promise<{ stdout: string; stderr: string }> {
  const work = mkdtempSync(join(tmpdir(), 'swap-gateway-sample-'));
  try {
    for (const [name, content] of Object.entries(setup.files ?? {})) writeFileSync(join(work, name), content);
    const [command, args] = {
      curl: ['bash', ['-e', '-o', 'pipefail', sample.file]],
      typescript: [process.execPath, ['--import', tsxLoader, sample.file]],
      python: ['python3', [sample.file]],
    }[sample.language.key] as [string, string[]];
    // No key unless the setup gives one: every operation answers without (Node leaves undefined variables out).
    const result = await run(command, args, {
      cwd: work,
      env: { ...process.env, GATEWAY_URL: server.url, GATEWAY_API_KEY: undefined, ...setup.env },
      timeout: 60_000,
    });
    ran.get(sample.language.label)!.push(sample.relativePath);
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const flows: Record<string, (output: { stdout: string; stderr: string }) => void> = {
  'onramp-flow': ({ stdout, stderr }) => {
    expect(stderr).toMatch(/broadcast [0-9a-f]{64}/);
    expect(stdout.trim().split('\n').at(-1)).toBe('success');
  },
  'wait-for-order': ({ stdout }) => expect(stdout).toMatch(/^received /m),
  'iterate-orders': ({ stdout }) => {
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^\S+ (inProgress|success|failed|refunded)$/);
  },
  'handle-errors': ({ stdout }) => expect(stdout.trim()).toBe('ask the user for a refund address and quote again'),
  'api-key': ({ stdout }) => expect(stdout).toContain('srcChain'),
  amounts: ({ stdout }) => expect(stdout.trim().split('\n')).toEqual(['1250000', '0.00993000', '250000000']),
};

describe('code samples against the sandbox server', () => {
  beforeAll(async () => {
    server = await startServer(sandboxServerOptions('settlingAtOnce'));
  });

  afterAll(async () => {
    await server?.close();
    console.log(`samples run against the sandbox: ${[...ran].map(([label, files]) => `${label} ${new Set(files).size}`).join(', ')}`);
  });

  for (const operation of operations) {
    const success = Object.values(operation.responses).find((response) => /^2/.test(response.status))!;
    for (const sample of samplesOf(operation)) {
      it(`${sample.relativePath} answers ${operation.method} ${operation.path} ${success.status}`, async () => {
        const { stdout } = await runSample(sample, await setups[operation.operationId]?.(sample.language));
        const { valid, errors } = validator.validate(jsonContent(success)!.schemaPointer!, JSON.parse(stdout));
        expect(valid, validator.describe(errors)).toBe(true);
      });
    }
  }

  for (const [flow, check] of Object.entries(flows)) {
    for (const sample of samplesAt(`guides/${flow}`)) {
      it(`${sample.relativePath} runs the flow`, async () => check(await runSample(sample, await setups[flow]?.(sample.language))));
    }
  }

  it('refuses a key of the wrong length, in every language of the API-key flow', async () => {
    for (const sample of samplesAt('guides/api-key')) {
      const failure = await runSample(sample, { env: { GATEWAY_API_KEY: 'too-short' } }).then(
        () => 'ran',
        (error: { stderr: string; stdout: string }) => error.stderr + error.stdout,
      );
      // The client refuses it before sending; curl and Python get the documented 401 body.
      expect(failure, sample.relativePath).toMatch(
        sample.language.key === 'typescript' ? /apiKey must be exactly 32 characters/ : /the API key must be exactly 32 characters/,
      );
    }
  });

  it('ran every sample file there is', () => {
    const onDisk = ['v4', 'v3', 'guides'].flatMap((folder) =>
      readdirSync(join(samplesDirectory, folder)).map((file) => `samples/${folder}/${file}`),
    );
    expect([...new Set([...ran.values()].flat())].sort()).toEqual(onDisk.sort());
  });
});
