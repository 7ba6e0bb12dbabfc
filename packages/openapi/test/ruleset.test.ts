/**
 * The house rules can fail: each one is run on a copy of the V3 bundle broken in
 * the way the rule forbids, and must report it; the unbroken bundle reports
 * nothing. The same is done for Redocly's configurable rules.
 */
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { commonjs } from '@stoplight/spectral-ruleset-bundler/plugins/commonjs';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';
import { fetch } from '@stoplight/spectral-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, type OpenApiDocument } from '@swap-gateway/openapi';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
type Doc = OpenApiDocument & Record<string, any>;

let spectral: Spectral;
beforeAll(async () => {
  spectral = new Spectral();
  spectral.setRuleset(await bundleAndLoadRuleset(join(repoRoot, 'openapi/lint/spectral.yaml'), { fs, fetch }, [commonjs()]));
});

async function lint(document: Doc): Promise<ISpectralDiagnostic[]> {
  return spectral.run(new Document(JSON.stringify(document, null, 2), JsonParser, join(repoRoot, 'fixture.json')));
}

/**
 * The ruleset with only `rule` on: rules are independent, so it reports what `rule` reports in the
 * whole ruleset's run, in a tenth of the time (spectral:oas and OWASP are a hundred rules more).
 */
async function lintWithOnly(rule: string, document: Doc): Promise<ISpectralDiagnostic[]> {
  const rules = Object.values(spectral.ruleset!.rules);
  const enabled = rules.map((candidate) => candidate.enabled);
  for (const candidate of rules) candidate.enabled = candidate.name === rule;
  try {
    return await lint(document);
  } finally {
    rules.forEach((candidate, index) => {
      candidate.enabled = enabled[index]!;
    });
  }
}

const base = () => loadBundle('gateway-v3') as Doc;
const createOrder = (doc: Doc) => doc.paths['/v3/create-order']!.post as Record<string, any>;

/** Each house rule and a way to break the document that it must catch. */
const breakages: [rule: string, breaking: string, mutate: (doc: Doc) => void][] = [
  [
    'gateway-path-version',
    'a path without its version',
    (doc) => {
      doc.paths['/create-order'] = doc.paths['/v3/create-order']!;
      delete doc.paths['/v3/create-order'];
    },
  ],
  [
    'gateway-operation-version',
    'an operationId without its version',
    (doc) => {
      createOrder(doc).operationId = 'createOrder';
    },
  ],
  [
    'gateway-operation-version',
    'a V3 operation tagged V4',
    (doc) => {
      createOrder(doc).tags = ['V4'];
    },
  ],
  [
    'gateway-operation-summary',
    'an operation without summary',
    (doc) => {
      delete createOrder(doc).summary;
    },
  ],
  [
    'gateway-operation-description',
    'an operation without description',
    (doc) => {
      delete createOrder(doc).description;
    },
  ],
  [
    'gateway-operation-examples',
    'a response body without examples',
    (doc) => {
      delete createOrder(doc).responses['201'].content['application/json'].examples;
    },
  ],
  [
    'gateway-operation-security',
    'an operation that requires the key',
    (doc) => {
      createOrder(doc).security = [{ apiKey: [] }];
    },
  ],
  [
    'gateway-operation-common-errors',
    'an operation without its 429',
    (doc) => {
      delete createOrder(doc).responses['429'];
    },
  ],
  [
    'gateway-create-order-statuses',
    'create-order answering 200',
    (doc) => {
      const responses = createOrder(doc).responses;
      responses['200'] = responses['201'];
      delete responses['201'];
    },
  ],
  [
    'gateway-error-body',
    'a 400 with a home-made body',
    (doc) => {
      createOrder(doc).responses['400'].content['application/json'].schema = {
        type: 'object',
        description: 'x',
        properties: { message: { type: 'string', description: 'x' } },
      };
    },
  ],
  [
    'gateway-error-body',
    'a V3 operation answering the V4 error body',
    (doc) => {
      doc.components.schemas!.GatewayErrorV4 = doc.components.schemas!.GatewayErrorV3;
      createOrder(doc).responses['400'].content['application/json'].schema = { $ref: '#/components/schemas/GatewayErrorV4' };
    },
  ],
  [
    'gateway-amount-digits',
    'a string amount without its digit pattern',
    (doc) => {
      delete (doc.components.schemas!.GatewayAmount as Record<string, unknown>).pattern;
    },
  ],
  [
    'gateway-schema-description',
    'a property without description',
    (doc) => {
      delete (doc.components.schemas!.GatewayRouteV2 as any)?.properties?.srcChain?.description;
      delete (doc.components.schemas!.GatewayTokenAmountV2 as any).properties.chain.description;
    },
  ],
  [
    'gateway-one-key-union',
    'an open route branch',
    (doc) => {
      delete (doc.components.schemas!.GatewayQuoteOfframpV3 as any).additionalProperties;
    },
  ],
  [
    'gateway-one-key-union',
    'a route branch that requires nothing',
    (doc) => {
      (doc.components.schemas!.GatewayCreateOrderResultOnrampV3 as any).required = [];
    },
  ],
  [
    'gateway-one-key-wrapper-named',
    'an inline route branch',
    (doc) => {
      (doc.components.schemas!.GatewayQuoteV3 as any).oneOf[0] = structuredClone(doc.components.schemas!.GatewayQuoteOnrampV3);
    },
  ],
  [
    'gateway-one-key-wrapper-named',
    'an inline status branch',
    (doc) => {
      (doc.components.schemas!.GatewayOrderStatusV3 as any).oneOf[1] = structuredClone(doc.components.schemas!.GatewayOrderStatusSuccessV3);
    },
  ],
  [
    'gateway-tagged-union',
    'a tagged union without its discriminator',
    (doc) => {
      delete (doc.components.schemas!.GatewayTxData as any).discriminator;
    },
  ],
  [
    'gateway-tagged-union',
    'a mapping that misses a tag',
    (doc) => {
      delete (doc.components.schemas!.GatewayTxData as any).discriminator.mapping.solana;
    },
  ],
  [
    'gateway-tagged-union',
    'a mapping that points at another branch',
    (doc) => {
      (doc.components.schemas!.GatewayTxData as any).discriminator.mapping.evm = '#/components/schemas/GatewayTronTxData';
    },
  ],
  [
    'gateway-tagged-union',
    'a tag without type: string',
    (doc) => {
      delete (doc.components.schemas!.GatewayEvmTxData as any).properties.type.type;
    },
  ],
  [
    'gateway-tagged-union',
    'a discriminator on a one-key union',
    (doc) => {
      (doc.components.schemas!.GatewayQuoteV3 as any).discriminator = { propertyName: 'onramp' };
    },
  ],
  [
    'gateway-no-catch-all-branch',
    'an anyOf with an any-value branch',
    (doc) => {
      doc.components.schemas!.GatewayOrdersPageV3 = {
        description: 'x',
        anyOf: [{ type: 'array', description: 'x', items: { type: 'string' } }, { description: 'anything' }],
      } as any;
    },
  ],
  [
    'gateway-unique-summary',
    'a V3 summary equal to its V4 one',
    (doc) => {
      doc.paths['/v4/get-order/{id}'] = structuredClone(doc.paths['/v3/get-order/{id}']!);
      (doc.paths['/v4/get-order/{id}']!.get as any).operationId = 'getOrderV4';
      (doc.paths['/v4/get-order/{id}']!.get as any).tags = ['V4'];
    },
  ],
  [
    'gateway-no-internal-server',
    'a loopback server left in the bundle',
    (doc) => {
      doc.servers!.push({
        url: 'http://127.0.0.1:{port}',
        description: 'Local mock.',
        'x-internal': true,
        variables: { port: { default: '4010' } },
      } as any);
    },
  ],
  [
    'gateway-marker-sentence',
    'an empty x-unspecified',
    (doc) => {
      (doc.components.schemas!.GatewayOrderInfoV3 as any).properties.timestamp['x-unspecified'] = '';
    },
  ],
  [
    'gateway-marker-sentence',
    'an x-inferred without a sentence',
    (doc) => {
      (doc.components.schemas!.GatewayEvmTxData as any)['x-inferred'] = 'required';
    },
  ],
  [
    'gateway-error-codes-documented',
    'a code without its version',
    (doc) => {
      delete (doc.components.schemas!.GatewayErrorCodeV3 as any)['x-introduced-in'].NO_ROUTE;
    },
  ],
  [
    'gateway-error-codes-documented',
    'a code without its meaning',
    (doc) => {
      delete (doc.components.schemas!.GatewayErrorCodeV3 as any)['x-enumDescriptions'].UNKNOWN;
    },
  ],
  [
    'gateway-code-condition-marked',
    'a description naming a code whose condition is not shown, unmarked',
    (doc) => {
      createOrder(doc).description += ' The same quote sent twice gives DUPLICATE_ORDER.';
    },
  ],
  [
    'gateway-code-condition-marked',
    'a code named under a marker that does not name it',
    (doc) => {
      (doc.components.schemas!.GatewayOrderInfoV3 as any).properties.timestamp.description += ' An unknown order gives ORDER_NOT_FOUND.';
    },
  ],
  [
    'gateway-parameter-bound-marked',
    'a minLength left unmarked',
    (doc) => {
      delete (doc.components.parameters!.cursor as any).schema['x-inferred'];
    },
  ],
  [
    'gateway-parameter-bound-marked',
    'an inline parameter with an unmarked bound',
    (doc) => {
      createOrder(doc).parameters = [{ name: 'tag', in: 'query', description: 'x', schema: { type: 'string', maxLength: 8 } }];
    },
  ],
  [
    'gateway-native-btc-marked',
    'the zero-address convention stated without its marker',
    (doc) => {
      delete (doc.components.schemas!.GatewayTokenAmountV2 as any).properties.address['x-inferred'];
    },
  ],
  [
    'gateway-native-btc-marked',
    'the zero-address convention under a marker that does not name the public gateway',
    (doc) => {
      (doc.components.schemas!.GatewayTokenAmountV2 as any).properties.address['x-inferred'] = 'The sandbox server names native BTC so.';
    },
  ],
  [
    'gateway-no-credentials-in-url',
    'a credential in the query',
    (doc) => {
      createOrder(doc).parameters = [{ name: 'api_key', in: 'query', description: 'x', schema: { type: 'string' } }];
    },
  ],
];

describe('Spectral house rules', () => {
  it('report nothing on the bundle as it is', async () => {
    expect((await lint(base())).map((result) => `${result.code} ${result.path.join('.')}`)).toEqual([]);
  });

  it.each(breakages)('%s catches %s', async (rule, _breaking, mutate) => {
    const document = base();
    mutate(document);
    const codes = (await lintWithOnly(rule, document)).map((result) => String(result.code));
    expect(codes).toContain(rule);
  });

  it('every house rule of the ruleset is exercised here', () => {
    const ruleset = fs.readFileSync(join(repoRoot, 'openapi/lint/spectral.yaml'), 'utf8');
    const houseRules = [...ruleset.matchAll(/^ {2}(gateway-[\w-]+):$/gm)].map((match) => match[1]);
    expect(new Set(breakages.map(([rule]) => rule))).toEqual(new Set(houseRules));
  });
});

describe('Redocly configurable rules', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'redocly-rules-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

  /** Redocly's rule ids for a document. Its JSON report goes to a file: output to a pipe can be lost when the CLI exits. */
  function redoclyRules(document: Doc): string[] {
    const file = join(scratch, 'fixture.json');
    const reportFile = join(scratch, 'report.json');
    writeFileSync(file, JSON.stringify(document));
    const report = openSync(reportFile, 'w');
    try {
      spawnSync(process.execPath, [redocly, 'lint', file, '--config', join(repoRoot, 'openapi/redocly.yaml'), '--format', 'json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        stdio: ['ignore', report, 'ignore'],
      });
    } finally {
      closeSync(report);
    }
    return (JSON.parse(readFileSync(reportFile, 'utf8')) as { problems: { ruleId: string }[] }).problems.map((problem) => problem.ruleId);
  }

  it('catch an unversioned operationId, a wrong tag, a non-JSON body, an undescribed schema, an invalid example', () => {
    const document = base();
    createOrder(document).operationId = 'createOrder';
    createOrder(document).tags = ['Orders'];
    createOrder(document).responses['201'].content['text/plain'] = { schema: { type: 'string' }, examples: { text: { value: 'created' } } };
    delete (document.components.schemas!.GatewayRouteV2 as Record<string, unknown> | undefined)?.description;
    delete (document.components.schemas!.GatewayOrdersPageV3 as Record<string, unknown>).description;
    createOrder(document).responses['400'].content['application/json'].examples.MISSING_OWNER_ADDRESS.value.code = 'NOT_A_CODE';
    const rules = redoclyRules(document);
    expect(rules).toEqual(
      expect.arrayContaining([
        'rule/operation-id-carries-version',
        'rule/operation-tagged-with-version',
        'rule/json-only',
        'rule/component-schema-described',
        'no-invalid-media-type-examples',
      ]),
    );
  });
});
