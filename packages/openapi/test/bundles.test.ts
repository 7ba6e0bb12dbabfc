/**
 * The bundles are valid OpenAPI 3.1 (checked with an independent validator, not
 * the linters), keep each version's operations apart, and are reproducible:
 * bundling the same sources twice gives the same bytes as the build's output.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { bundlePath, loadBundle, type BundleName } from '@swap-gateway/openapi';
import { buildBundles } from '../scripts/bundle.ts';

const names: BundleName[] = ['gateway', 'gateway-v4', 'gateway-v3'];

describe('each bundle is a valid OpenAPI 3.1 document', () => {
  it.each(names)('%s', async (name) => {
    const validator = new Validator();
    const result = await validator.validate(loadBundle(name));
    expect(validator.version).toBe('3.1');
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('per-version bundles', () => {
  it.each([
    ['gateway-v4', 'V4', '/v4/'],
    ['gateway-v3', 'V3', '/v3/'],
  ] as const)('%s holds only %s operations and its tag', (name, tag, prefix) => {
    const bundle = loadBundle(name);
    expect(Object.keys(bundle.paths).length).toBeGreaterThan(0);
    for (const path of Object.keys(bundle.paths)) expect(path.startsWith(prefix)).toBe(true);
    expect((bundle.tags as { name: string }[]).map((entry) => entry.name)).toEqual([tag]);
    expect(bundle.info.title).toContain(tag);
  });

  it('the V4 bundle alone says how V4 differs from V3 (its tag keeps the sentence the V3 tag has)', () => {
    const [tag] = loadBundle('gateway-v4').tags as { name: string; description?: string }[];
    const text = (tag?.description ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('`refundAddress` replaces `ownerAddress`');
    expect(text).toMatch(/`slippage` is optional in get-quote/);
    expect(text).toMatch(/register-tx accepts only an onramp body with `bitcoin_tx_hex`/);
  });

  it('the combined bundle holds both versions and no example components (examples are inlined)', () => {
    const bundle = loadBundle('gateway');
    expect(Object.keys(bundle.paths).filter((path) => path.startsWith('/v4/'))).toHaveLength(7);
    expect(Object.keys(bundle.paths).filter((path) => path.startsWith('/v3/'))).toHaveLength(3);
    expect(bundle.components).not.toHaveProperty('examples');
    expect(JSON.stringify(bundle)).not.toContain('#/components/examples/');
  });
});

describe('bundling is reproducible', () => {
  const scratch = [mkdtempSync(join(tmpdir(), 'bundle-a-')), mkdtempSync(join(tmpdir(), 'bundle-b-'))];
  afterAll(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it('two runs and the build output are byte-for-byte equal', () => {
    for (const dir of scratch) buildBundles(dir);
    const files = readdirSync(scratch[0]!).sort();
    expect(files).toEqual(['gateway-v3.json', 'gateway-v3.yaml', 'gateway-v4.json', 'gateway-v4.yaml', 'gateway.json', 'gateway.yaml']);
    for (const file of files) {
      const first = readFileSync(join(scratch[0]!, file));
      expect(readFileSync(join(scratch[1]!, file)).equals(first), `${file}: second run`).toBe(true);
      const [stem, format] = file.split('.') as [BundleName, 'json' | 'yaml'];
      expect(readFileSync(bundlePath(stem, format)).equals(first), `${file}: build output`).toBe(true);
    }
  }, 180_000); // six Redocly runs, about 7 s of CPU: at a load of 13 on 2 cores it took 72 s
});
