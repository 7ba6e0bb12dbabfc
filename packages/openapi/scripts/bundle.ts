/**
 * Bundles the hand-authored document in the repository's openapi/ into this package's dist/:
 * the combined document (V3 and V4) and one per version, each as JSON and YAML.
 *
 *   tsx packages/openapi/scripts/bundle.ts [--out <dir>] [--source <dir>] [--only <bundle>]   (the package's `build`)
 *
 * --source is a directory holding an openapi/ folder (the repository root by
 * default), so that a document at another git ref can be bundled the same way.
 * --only writes one of the bundles (gateway, gateway-v4 or gateway-v3), for a
 * reader that needs one: spec-diff reads the combined one, and each bundle is a
 * Redocly run of its own.
 *
 * Redocly's bundler does the work (the three APIs and their decorators are in
 * openapi/redocly.yaml). Two things are done after it:
 * - examples are inlined where they are used: they are leaves, and Redocly names
 *   example components by file name, which collides across operations;
 * - a per-version bundle keeps only its own version's tag.
 * The output is byte-for-byte reproducible: no timestamps, stable key order.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { isJsonObject, type Json, type JsonObject } from '../src/json.ts';
import { resolveRef } from '../src/pointer.ts';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageRoot, '..', '..');
const redoclyCli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/** The bundles: Redocly API alias, output file stem, and the tag a per-version bundle keeps. */
export const bundles = [
  { api: 'gateway', file: 'gateway', tag: undefined },
  { api: 'gateway-v4', file: 'gateway-v4', tag: 'V4' },
  { api: 'gateway-v3', file: 'gateway-v3', tag: 'V3' },
] as const;

/** Replaces every `{ $ref: '#/components/examples/X' }` with the example itself and drops `components.examples`. */
function inlineExamples(document: JsonObject): void {
  const isExample = (ref: Json | undefined) => typeof ref === 'string' && ref.startsWith('#/components/examples/');
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isJsonObject(node)) return node;
    if (isExample(node.$ref)) return visit(resolveRef<Json>(document, node));
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
  };
  const inlined = visit(document) as JsonObject;
  delete (inlined.components as JsonObject).examples;
  Object.assign(document, inlined);
}

function keepTag(document: JsonObject, tag: string): void {
  document.tags = (document.tags as JsonObject[]).filter((entry) => entry.name === tag);
}

function redoclyBundle(sourceRoot: string, api: string, outFile: string): JsonObject {
  try {
    const config = join(sourceRoot, 'openapi', 'redocly.yaml');
    execFileSync(process.execPath, [redoclyCli, 'bundle', api, '--config', config, '--ext', 'json', '-o', outFile], {
      cwd: sourceRoot,
      stdio: 'pipe',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
  } catch (error) {
    const failure = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${failure.stdout ?? ''}${failure.stderr ?? ''}`);
    throw new Error(`redocly bundle ${api} failed`);
  }
  return JSON.parse(readFileSync(outFile, 'utf8')) as JsonObject;
}

type BundleFile = (typeof bundles)[number]['file'];

export function buildBundles(outDir: string, sourceRoot: string = repoRoot, only?: BundleFile): string[] {
  const selected = bundles.filter(({ file }) => only === undefined || file === only);
  if (selected.length === 0) throw new Error(`no bundle named ${only}: one of ${bundles.map(({ file }) => file).join(', ')}`);
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'gateway-bundle-'));
  const written: string[] = [];
  try {
    for (const { api, file, tag } of selected) {
      const document = redoclyBundle(sourceRoot, api, join(scratch, `${file}.json`));
      inlineExamples(document);
      if (tag) keepTag(document, tag);
      const jsonPath = join(outDir, `${file}.json`);
      const yamlPath = join(outDir, `${file}.yaml`);
      writeFileSync(jsonPath, `${JSON.stringify(document, null, 2)}\n`);
      writeFileSync(yamlPath, stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }));
      written.push(jsonPath, yamlPath);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = (name: string) => {
    const index = process.argv.indexOf(name);
    return index > 0 ? process.argv[index + 1] : undefined;
  };
  const path = (name: string) => {
    const value = flag(name);
    return value === undefined ? undefined : resolve(value);
  };
  const outDir = path('--out') ?? join(packageRoot, 'dist');
  const sourceRoot = path('--source') ?? repoRoot;
  for (const file of buildBundles(outDir, sourceRoot, flag('--only') as BundleFile | undefined)) console.log(`bundled ${file}`);
}
