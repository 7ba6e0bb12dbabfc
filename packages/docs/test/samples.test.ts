/**
 * Every code sample runs: the curl scripts with curl and the TypeScript programs with tsx, against
 * the mock of the API (@swap-gateway/mock: Prism serving the bundle and its examples). Each prints
 * the operation's answer, which must validate against the operation's success response in the
 * bundle. A sample that stops working fails here.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startMock, type RunningMock } from '@swap-gateway/mock';
import { createSchemaValidator, loadBundle } from '@swap-gateway/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonExamples, listOperations, resolve } from '../src/document.js';
import { samplesDirectory, samplesOf } from '../src/samples.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;

const bundle = loadBundle('gateway');
const validator = createSchemaValidator(bundle);
const operations = listOperations(bundle);

/** The V3 quote the V3 create-order samples read from quote-v3.json: the document's own V3 offramp example. */
function v3Quote(): unknown {
  const createOrder = operations.find((operation) => operation.operationId === 'createOrderV3')!;
  const body = resolve<{ content: { 'application/json': { examples: Record<string, unknown> } } }>(bundle, createOrder.node.requestBody);
  return jsonExamples(bundle, { content: body.content }).find((example) => example.name === 'offramp')!.value;
}

describe('code samples against the mock', () => {
  let mock: RunningMock;
  let workDirectory: string;

  beforeAll(async () => {
    mock = await startMock();
    workDirectory = mkdtempSync(join(tmpdir(), 'swap-gateway-samples-'));
    writeFileSync(join(workDirectory, 'quote-v3.json'), JSON.stringify(v3Quote(), null, 2));
  });

  afterAll(async () => {
    await mock?.stop();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  for (const operation of operations) {
    const successStatus = Object.keys(operation.node.responses as object).find((status) => /^2/.test(status))!;
    for (const sample of samplesOf(operation)) {
      it(`${sample.relativePath} answers ${operation.method.toUpperCase()} ${operation.path} ${successStatus}`, async () => {
        const command = sample.language.key === 'curl' ? ['bash', ['-e', '-o', 'pipefail', sample.file]] : [process.execPath, ['--import', tsxLoader, sample.file]];
        const { stdout } = await run(command[0] as string, command[1] as string[], {
          cwd: workDirectory,
          // No key: every operation answers without one (Node leaves undefined variables out).
          env: { ...process.env, GATEWAY_URL: mock.url, GATEWAY_API_KEY: undefined },
          timeout: 30_000,
        });
        const answer = JSON.parse(stdout) as unknown;
        const { valid, errors } = validator.validate(validator.responsePointer(operation.path, operation.method, successStatus), answer);
        expect(valid, validator.describe(errors)).toBe(true);
      });
    }
  }

  it('runs the API-key guide snippet without a key, and the client refuses a key of the wrong length', async () => {
    const snippet = join(samplesDirectory, 'guides', 'api-key.ts');
    const withoutKey = await run(process.execPath, ['--import', tsxLoader, snippet], { env: { ...process.env, GATEWAY_URL: mock.url, GATEWAY_API_KEY: undefined }, timeout: 30_000 });
    expect(withoutKey.stdout).toContain('srcChain');
    const shortKey = await run(process.execPath, ['--import', tsxLoader, snippet], { env: { ...process.env, GATEWAY_URL: mock.url, GATEWAY_API_KEY: 'too-short' }, timeout: 30_000 }).then(
      () => 'ran',
      (error: { stderr: string }) => error.stderr,
    );
    expect(shortKey).toContain('apiKey must be exactly 32 characters');
  });

  it('runs the amounts guide snippet and prints what its comments say', async () => {
    const { stdout } = await run(process.execPath, ['--import', tsxLoader, join(samplesDirectory, 'guides', 'amounts.ts')], { timeout: 30_000 });
    expect(stdout.trim().split('\n')).toEqual(['1250000', '0.00993000', '250000000']);
  });
});
