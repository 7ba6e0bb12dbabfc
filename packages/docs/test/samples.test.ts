/**
 * Every code sample runs as the built pages print it: its code is copied from the page that shows it
 * (built-samples.ts), written to a file and run with an empty environment but for the inputs the
 * page names for it (an order id, a signed transaction, a wallet command), so without GATEWAY_URL:
 * the samples reach the sandbox at http://127.0.0.1:8080, the address they default to, where the
 * test puts a recording proxy in front of its own sandbox server (@swap-gateway/server, in memory,
 * settling orders within a second; default-gateway.ts). The curl scripts run with bash, the
 * TypeScript programs with node once esbuild has stripped their types (tsx's transform), the Python
 * scripts with the machine's python3. The samples of an
 * operation print its answer, which must validate against the operation's success response in the
 * bundle; the flows of the guides print what their comments say. Without a key no sample sends
 * Authorization; with GATEWAY_API_KEY set every request of every curl and Python sample, and of the
 * TypeScript ones listed below, carries it. Every sample file under samples/ must have run from a page
 * by the end, and the test prints how many ran per language.
 *
 * The client is not published: the quickstart's install packs it in the clone and installs it in a new
 * project. The test runs that install as the page prints it (npm reaches the registry for bitcoinjs-lib
 * and the rest), and runs the quickstart's TypeScript programs from that project with `npx tsx`, as the
 * page says (their run with a key aside); the other TypeScript samples import the workspace's client, the
 * same code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createSchemaValidator, jsonContent, loadBundle } from '@swap-gateway/openapi';
import { transformSync } from 'esbuild';
import { startServer, type RunningServer } from '@swap-gateway/server';
import { sandboxControls, sandboxServerOptions } from '@swap-gateway/test-support/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedOperations } from '../src/document.js';
import { defaultOutput, packageRoot } from '../src/paths.js';
import { sampleLanguages, samplesAt, samplesDirectory, samplesOf, type Sample, type SampleLanguage } from '../src/samples.js';
import { sandboxControls as pageControls } from '../src/guide-sections/sandbox.js';
import { htmlText, printedSamples, type PrintedSample } from './built-samples.js';
import { defaultGateway, runProgram, type DefaultGateway } from './default-gateway.js';
import { onrampQuoteParameters, testWallet } from './wallet.js';

/**
 * Where the copies of the samples are written: under the package's node_modules, so that the
 * TypeScript ones import `@swap-gateway/client` as a reader's program imports it from node_modules.
 */
const copiesRoot = join(packageRoot, 'node_modules', '.cache', 'docs-samples');
/** The sandbox wallet command, with its types stripped once for every signature the onramp flows ask of it. */
const walletCopy = join(copiesRoot, 'sandbox-wallet', 'sandbox-wallet.ts.mjs');
const repositoryRoot = join(packageRoot, '..', '..');
/**
 * The machine's python3, resolved once: where `python3` on PATH is a version manager's shim (pyenv's
 * here), the shim costs more CPU than the sample it starts (0.6 s against 0.1 s a run, measured); the
 * sample runs with the interpreter the shim would choose.
 */
const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
/**
 * A TypeScript sample as tsx runs it: esbuild's transform of the printed code (the one tsx applies to a
 * file), then node. tsx loaded in each sample's process cost 0.75 s of CPU a run, node alone 0.2 s; the
 * quickstart's programs still run with `npx tsx`, as their page says.
 */
const transpiled = (source: string) =>
  transformSync(source, { loader: 'ts', format: 'esm', target: `node${process.versions.node.split('.')[0]}` }).code;
/**
 * How node runs the TypeScript samples and the sandbox wallet: with V8's baseline WebAssembly compiler
 * alone. fetch's HTTP parser (llhttp) and tiny-secp256k1 are WebAssembly, and their optimizing
 * recompilation, in the background, cost a program that runs for a second more CPU than it saved it:
 * getQuoteV4.ts took 0.53 s of CPU a run, 0.31 s with the flag (measured).
 */
const nodeArgs = ['--liftoff-only'];
/** A well-formed key the sandbox never issued: the proxy takes it out again (default-gateway.ts). */
const testKey = 'DocsSamplesTestKey0123456789abcd';
/** Samples that compute without calling the API. */
const offline = new Set(['samples/guides/amounts.ts', 'samples/guides/sandbox-wallet.ts']);
/** The TypeScript samples run a second time with the key (every curl and Python sample is). */
const typescriptWithKey = new Set(['samples/quickstart/four-calls.ts', 'samples/v4/createOrderV4.ts', 'samples/guides/api-key.ts']);

const bundle = loadBundle('gateway');
const validator = createSchemaValidator(bundle);
const operations = publishedOperations(bundle);

/** An offramp the sandbox serves: WBTC on Ethereum to Bitcoin, executable. */
const offrampQuoteParameters = {
  srcChain: 'ethereum',
  dstChain: 'bitcoin',
  srcToken: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
  dstToken: '0x0000000000000000000000000000000000000000',
  amount: '5000000',
  recipient: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
  refundAddress: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
};
const onrampQuery = (extra: Record<string, string> = {}) => new URLSearchParams({ ...onrampQuoteParameters, ...extra });

let server: RunningServer;
let gateway: DefaultGateway;
/** The reader's project the quickstart's install makes (its HOME's `my-project`), once that install has run. */
let quickstartProject: Promise<string>;
let quickstartHome: string;
let printed: Map<string, PrintedSample>;
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
  'guides/wait-for-order': async () => {
    const { order_id } = await onrampOrder();
    await sandboxControls(server.url).forceOutcome(order_id, 'success');
    return { env: { ORDER_ID: order_id } };
  },
  // The wallet of the flow is the sandbox wallet command as the sandbox page prints it, set up as the client flow says,
  // run as the other TypeScript samples are.
  'guides/onramp-flow': async () => {
    const signWith = `"${process.execPath}" ${nodeArgs.join(' ')} "${walletCopy}"`;
    const { stdout } = await runProgram(process.execPath, [...nodeArgs, walletCopy, '--address'], {
      cwd: dirname(walletCopy),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeout: 60_000,
    });
    return { env: { BITCOIN_ADDRESS: stdout.trim(), SIGN_PSBT_COMMAND: signWith } };
  },
};

/**
 * The quickstart's "Install the client", run as its page prints it: the first block in the clone of the
 * repository, the second in a new folder, with a HOME of the test's own (the blocks write to
 * `~/swap-gateway-packages`). npm keeps the machine's cache and takes what is in it without asking the
 * registry again, and skips its audit, funding and update reports: nothing installed changes, and the
 * test waits less on the registry. The client is not published, so this is how a reader gets it.
 */
async function installAsTheQuickstartSays(): Promise<string> {
  const section = readFileSync(join(defaultOutput, 'guides', 'quickstart.html'), 'utf8').split('<h2 id="2-install-the-client">')[1] ?? '';
  const blocks = [...section.split('<h2')[0]!.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map(([, code = '']) =>
    htmlText(code),
  );
  if (blocks.length !== 2)
    throw new Error(`the quickstart's install section has ${blocks.length} code blocks, not 2 (in the clone, in the project)`);
  const project = join(quickstartHome, 'my-project');
  mkdirSync(project);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: quickstartHome,
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const [inClone = '', inProject = ''] = blocks;
  await runProgram('bash', ['-e', '-o', 'pipefail', '-c', inClone], { cwd: repositoryRoot, env, timeout: 120_000 });
  await runProgram('bash', ['-e', '-o', 'pipefail', '-c', inProject], { cwd: project, env, timeout: 240_000 });
  return project;
}

/**
 * The quickstart's TypeScript programs run from the project its install made, as it says: `npx tsx
 * quickstart.ts`. Their second run, with a key, checks the key sent, not the page's command: it runs as
 * the other TypeScript samples do, sparing a start of npm and tsx (2 to 3 s of CPU).
 */
const runsInQuickstartProject = (sample: Sample, key: string | undefined) =>
  sample.relativePath.startsWith('samples/quickstart/') && sample.language.key === 'typescript' && !key;

/** The base of a sample's files (`guides/onramp-flow`), or its operation id: what `setups` is keyed by. */
const setupOf = (sample: Sample) => {
  const base = sample.relativePath.replace(/^samples\//, '').replace(/\.\w+$/, '');
  return setups[base] ?? setups[base.split('/').pop() ?? ''];
};

/** Runs one sample as its page prints it, in a folder of its own; resolves with what it printed, rejects (failing the test) when it fails. */
async function runSample(
  sample: Sample,
  setup: Setup = {},
  { key, args: extra = [] }: { key?: string; args?: string[] } = {},
): Promise<{ stdout: string; stderr: string }> {
  const copy = printed.get(sample.relativePath);
  if (!copy) throw new Error(`${sample.relativePath} is on no page of the built site`);
  const work = mkdtempSync(join(tmpdir(), 'swap-gateway-sample-'));
  mkdirSync(copiesRoot, { recursive: true });
  // An ES module project, as the reader's is: the TypeScript samples await at the top level.
  writeFileSync(join(copiesRoot, 'package.json'), '{ "type": "module" }\n');
  const project = runsInQuickstartProject(sample, key) ? await quickstartProject : undefined;
  const copies = project ?? mkdtempSync(join(copiesRoot, 'run-'));
  const compiled = !project && sample.language.key === 'typescript';
  const file = join(copies, `${basename(sample.relativePath)}${compiled ? '.mjs' : ''}`);
  try {
    for (const [name, content] of Object.entries(setup.files ?? {})) writeFileSync(join(work, name), content);
    writeFileSync(file, compiled ? transpiled(copy.source) : copy.source);
    const [command, args] = project
      ? ['npx', ['tsx', basename(file), ...extra]]
      : ({
          curl: ['bash', ['-e', '-o', 'pipefail', file, ...extra]],
          typescript: [process.execPath, [...nodeArgs, file, ...extra]],
          python: [python, [file, ...extra]],
        }[sample.language.key] as [string, string[]]);
    // Nothing of the test's environment: PATH to find bash, curl and python3, and what the page asks the reader to set.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...setup.env, ...(key ? { GATEWAY_API_KEY: key } : {}) };
    gateway.clear();
    const result = await gateway.run(command, args, { cwd: project ?? work, env, timeout: 60_000 });
    const sent = gateway.requests.map((request) => request.authorization);
    if (offline.has(sample.relativePath)) expect(sent, `${sample.relativePath} calls nothing`).toEqual([]);
    else expect(sent.length, `${sample.relativePath} reached the sandbox at its default address`).toBeGreaterThan(0);
    expect(sent, `${sample.relativePath} ${key ? 'sends the key set' : 'sends no key when none is set'}`).toEqual(
      sent.map(() => (key ? `Bearer ${key}` : undefined)),
    );
    if (!key) ran.get(sample.language.label)!.push(sample.relativePath);
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(project ? file : copies, { recursive: true, force: true });
  }
}

const lines = (text: string) => text.trim().split('\n');

/** What each flow prints, by the base of its files. */
const flows: Record<string, (output: { stdout: string; stderr: string }, language: SampleLanguage) => void> = {
  'quickstart/four-calls': ({ stdout }, language) => {
    const printed = lines(stdout);
    if (language.key === 'curl') {
      // The four answers, each on its line: the last is the order, in progress.
      expect(printed).toHaveLength(4);
      expect(JSON.parse(printed[3]!)).toMatchObject({ id: expect.any(String), status: { inProgress: expect.anything() } });
    } else {
      expect(printed[0]).toMatch(/^\d+ routes, among them bitcoin to bob: (true|True)$/);
      expect(printed[1]).toMatch(/^quote: pay 1000000 sats, receive \d+ WBTC units, fees \d+$/);
      expect(printed[2]).toMatch(/^order \S+: pay 1000000 sats to bc1\w+$/);
      expect(printed[3]).toBe('status: inProgress');
    }
  },
  'quickstart/execute-quote': ({ stdout }) => {
    const printed = lines(stdout);
    expect(printed.slice(0, 3).map((line) => line.replace(/ \S+ created$| [0-9a-f]{64}$/, ''))).toEqual([
      'order',
      'payment signed by the wallet',
      'payment registered, broadcast as',
    ]);
    expect(printed.at(-1)).toBe('settled: success');
  },
  'guides/onramp-flow': ({ stdout, stderr }) => {
    expect(stderr).toMatch(/broadcast [0-9a-f]{64}/);
    expect(lines(stdout).at(-1)).toBe('success');
  },
  'guides/wait-for-order': ({ stdout }) => expect(stdout).toMatch(/^received /m),
  'guides/iterate-orders': ({ stdout }) => {
    expect(lines(stdout).length).toBeGreaterThan(1);
    for (const line of lines(stdout)) expect(line).toMatch(/^\S+ (inProgress|success|failed|refunded)$/);
  },
  'guides/handle-errors': ({ stdout }) => expect(stdout.trim()).toBe('ask the user for a refund address and quote again'),
  'guides/api-key': ({ stdout }) => expect(stdout).toContain('srcChain'),
  'guides/amounts': ({ stdout }) => expect(lines(stdout)).toEqual(['1250000', '0.00993000', '250000000']),
};

describe('code samples as printed, against the sandbox at their default address', () => {
  beforeAll(async () => {
    // The install waits mostly on npm: it goes on while the other samples run, and the quickstart's wait for it.
    quickstartHome = mkdtempSync(join(tmpdir(), 'swap-gateway-quickstart-'));
    quickstartProject = installAsTheQuickstartSays();
    quickstartProject.catch(() => undefined);
    server = await startServer(sandboxServerOptions('settlingAtOnce'));
    gateway = await defaultGateway(server.url, testKey);
    printed = new Map(printedSamples().map((sample) => [sample.relativePath, sample]));
    // The sandbox wallet command as the page prints it, kept for the whole file: the onramp flow signs with it.
    mkdirSync(dirname(walletCopy), { recursive: true });
    writeFileSync(join(copiesRoot, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(walletCopy, transpiled(printed.get('samples/guides/sandbox-wallet.ts')?.source ?? ''));
  });

  afterAll(async () => {
    await quickstartProject?.catch(() => undefined);
    rmSync(quickstartHome, { recursive: true, force: true });
    rmSync(dirname(walletCopy), { recursive: true, force: true });
    await gateway?.close();
    await server?.close();
    console.log(
      `samples run as printed against the sandbox (${gateway?.mode === 'namespace' ? 'each in a network namespace, 127.0.0.1:8080 being taken' : 'at 127.0.0.1:8080'}): ${[
        ...ran,
      ]
        .map(([label, files]) => `${label} ${new Set(files).size}`)
        .join(', ')}`,
    );
  });

  it('prints every sample file on a page, as the file is', () => {
    const onDisk = ['quickstart', 'v4', 'v3', 'guides'].flatMap((folder) =>
      readdirSync(join(samplesDirectory, folder)).map((file) => `samples/${folder}/${file}`),
    );
    expect([...printed.keys()].sort()).toEqual(onDisk.sort());
    for (const [relativePath, sample] of printed)
      expect(sample.source.trimEnd(), `${relativePath} on ${sample.page}`).toBe(
        readFileSync(join(packageRoot, relativePath), 'utf8').trimEnd(),
      );
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

  it("installs the client as the quickstart prints it: packed in the clone, installed in the reader's project", async () => {
    const project = await quickstartProject;
    const installed = (name: string) => JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version;
    for (const name of ['client', 'types'])
      expect(installed(`@swap-gateway/${name}`)).toBe(
        JSON.parse(readFileSync(join(repositoryRoot, 'packages', name, 'package.json'), 'utf8')).version,
      );
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).type).toBe('module');
    expect(existsSync(join(project, 'node_modules', '.bin', 'tsx'))).toBe(true);
  });

  for (const [flow, check] of Object.entries(flows)) {
    for (const sample of samplesAt(flow)) {
      it(`${sample.relativePath} runs the flow`, async () =>
        check(await runSample(sample, await setupOf(sample)?.(sample.language)), sample.language));
    }
  }

  it('samples/guides/sandbox-wallet.ts prints its address (and signs the PSBT of the onramp flow above)', async () => {
    const [sample] = samplesAt('guides/sandbox-wallet');
    const { stdout } = await runSample(sample!, {}, { args: ['--address'] });
    expect(stdout.trim()).toMatch(/^bc1q\w{38}$/);
  });

  describe('sends the key on every request when GATEWAY_API_KEY is set: every curl and Python sample, and TypeScript', () => {
    const samples = [...operations.flatMap((operation) => samplesOf(operation)), ...Object.keys(flows).flatMap((flow) => samplesAt(flow))];
    const withKey = samples.filter(
      (sample) => !offline.has(sample.relativePath) && (sample.language.key !== 'typescript' || typescriptWithKey.has(sample.relativePath)),
    );
    it('in each language', () =>
      expect(new Set(withKey.map((sample) => sample.language.key))).toEqual(new Set(['curl', 'typescript', 'python'])));
    // A test a sample: the thirty runs in one test outlasted its 60 s on a loaded machine (the whole file
    // took 9 minutes), and the runs left going sent their requests into the next test's record.
    for (const sample of withKey)
      it(sample.relativePath, async () => {
        await runSample(sample, await setupOf(sample)?.(sample.language), { key: testKey });
      });
  });

  it('runs every sandbox control as the sandbox page prints it, and each does what the page says', async () => {
    const html = readFileSync(join(defaultOutput, 'guides', 'sandbox.html'), 'utf8');
    const controls = [
      ...html.matchAll(
        /<div class="sandbox-control" data-control="([^"]+)">\s*<div class="code-block"><pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g,
      ),
    ].map(([, call = '', block = '']) => ({ call, curl: htmlText(block) }));
    expect(controls.map((control) => control.call)).toEqual(pageControls.map((control) => control.call));
    const offramp = await api('GET', `/v4/get-quote?${new URLSearchParams(offrampQuoteParameters)}`);
    const orders = {
      offramp: (await api('POST', '/v4/create-order', offramp)).offramp.order_id as string,
      onramp: (await onrampOrder()).order_id,
    };
    const work = mkdtempSync(join(tmpdir(), 'swap-gateway-control-'));
    try {
      for (const { call, curl } of controls) {
        const orderId = call.includes('source-sent') ? orders.offramp : orders.onramp;
        gateway.clear();
        const { stdout } = await gateway.run('bash', ['-e', '-o', 'pipefail', '-c', curl], {
          cwd: work,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ORDER_ID: orderId },
          timeout: 30_000,
        });
        expect(
          gateway.requests.map((request) => `${request.method} ${request.path}`),
          call,
        ).toEqual([call.replace('{id}', orderId).replace('{address}', 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged')]);
        const answer = JSON.parse(stdout) as Record<string, any>;
        const effects: Record<string, () => Promise<void> | void> = {
          'POST /sandbox/orders/{id}/source-sent': async () =>
            expect((await api('GET', `/v4/get-order/${orders.offramp}`)).srcInfo.txHash).toMatch(/^0x[0-9a-f]{64}$/),
          'POST /sandbox/orders/{id}/outcome': async () =>
            expect(Object.keys((await api('GET', `/v4/get-order/${orders.onramp}`)).status)).toEqual(['refunded']),
          'POST /sandbox/advance': () => expect(answer.now).toMatch(/^\d{4}-\d\d-\d\dT/),
          'GET /sandbox/bitcoin/utxos/{address}': () => expect(answer.utxos).toHaveLength(3),
          'GET /sandbox/liquidity': () => expect(answer.liquidity.length).toBeGreaterThan(0),
          'GET /sandbox/prices': () => expect(answer.prices.length).toBeGreaterThan(0),
          'POST /sandbox/prices': () =>
            expect(answer.prices.find((price: { chain: string }) => price.chain === 'bitcoin')).toMatchObject({ priceUsd: '98000' }),
          'POST /sandbox/prices/walk': () => expect(answer.walk).toMatchObject({ intervalSeconds: 5, maxStepBps: 20 }),
          'DELETE /sandbox/prices/walk': () => expect(answer.walk).toBeNull(),
          // The next API request fails as a fault of the service, and the one after it does not.
          'POST /sandbox/faults': async () => {
            expect((await fetch(`${server.url}/v4/get-routes`)).status).toBe(500);
            expect((await fetch(`${server.url}/v4/get-routes`)).status).toBe(200);
          },
        };
        await effects[call]!();
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

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

  it('ran every sample file there is, copied from its page', () => {
    const onDisk = ['quickstart', 'v4', 'v3', 'guides'].flatMap((folder) =>
      readdirSync(join(samplesDirectory, folder)).map((file) => `samples/${folder}/${file}`),
    );
    expect([...new Set([...ran.values()].flat())].sort()).toEqual(onDisk.sort());
  });
});
