/**
 * The published bundles make a usable client with a second generator, @hey-api/openapi-ts (the
 * types package uses openapi-typescript): the generated client type-checks under strict settings,
 * and the models integrators branch on (quotes, create-order results, transaction data, statuses,
 * register-tx results, routes) are unions of named types, never `unknown`.
 *
 * A probe compiled with the generated code narrows each union the way an integrator would; if a
 * union decayed to `unknown` or lost its tag, the probe would not compile.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePath, type BundleName } from '@swap-gateway/openapi';

/** Each union an integrator branches on, with the named types it must be made of. */
const v4Unions: Record<string, string[]> = {
  GatewayQuoteV4: ['GatewayQuoteOnrampV4', 'GatewayQuoteOfframpV4', 'GatewayQuoteTokenSwapV4'],
  GatewayCreateOrderV3: ['GatewayCreateOrderResultOnrampV3', 'GatewayCreateOrderResultOfframpV3', 'GatewayCreateOrderResultTokenSwapV3'],
  GatewayTxData: ['GatewayEvmTxData', 'GatewayTronTxData', 'GatewaySolanaTxData'],
  GatewayOrderStatusV3: [
    'GatewayOrderStatusInProgressV3',
    'GatewayOrderStatusSuccessV3',
    'GatewayOrderStatusFailedV3',
    'GatewayOrderStatusRefundedV3',
  ],
  GatewayRegisterTxResultV4: ['GatewayRegisterTxResultOnrampV4'],
};
const unionsOf: Partial<Record<BundleName, Record<string, string[]>>> = {
  'gateway-v4': v4Unions,
  gateway: { ...v4Unions, GatewayQuoteV3: ['GatewayQuoteOnrampV3', 'GatewayQuoteOfframpV3', 'GatewayQuoteTokenSwapV3'] },
};

/** Narrows every union as an integrator would; it compiles only if the types are what they should be. */
const probe = `
import type { GatewayCreateOrderV3, GatewayOrderStatusV3, GatewayQuoteV4, GatewayRegisterTxResultV4, GatewayTxData, GetRoutesV4Responses } from './types.gen';
import { getRoutesV4 } from './sdk.gen';

type IsUnknown<T> = unknown extends T ? true : false;
const known: [IsUnknown<GatewayQuoteV4>, IsUnknown<GatewayCreateOrderV3>, IsUnknown<GatewayTxData>, IsUnknown<GatewayOrderStatusV3>, IsUnknown<GetRoutesV4Responses[200]>] = [false, false, false, false, false];

export function signedQuote(quote: GatewayQuoteV4): string | undefined {
  if ('onramp' in quote) return quote.onramp.signedQuoteData;
  if ('offramp' in quote) return quote.offramp.txTo;
  return quote.tokenSwap.txTo;
}

export function recipientOfTx(tx: GatewayTxData): string | number {
  switch (tx.type) {
    case 'evm': return tx.to;
    case 'tron': return tx.feeLimit;
    case 'solana': return tx.chainId;
  }
}

export function nextStep(result: GatewayCreateOrderV3): string | GatewayTxData {
  if ('onramp' in result) return result.onramp.address;
  return 'offramp' in result ? result.offramp.tx : result.tokenSwap.tx;
}

export function settled(status: GatewayOrderStatusV3): string[] {
  if ('success' in status) return status.success.received_tokens.map((transfer) => transfer.txHash);
  if ('refunded' in status) return status.refunded.refunded_tokens.map((transfer) => transfer.txHash);
  return [];
}

export function txid(result: GatewayRegisterTxResultV4): string {
  return typeof result === 'string' ? result : result.onramp.txid;
}

export async function bitcoinRoutes(): Promise<string[]> {
  const { data } = await getRoutesV4({ baseUrl: 'http://127.0.0.1:1', throwOnError: true });
  return data.filter((route) => route.srcChain === 'bitcoin').map((route) => route.dstToken);
}

void known;
`;

const bundles = Object.keys(unionsOf) as BundleName[];
const scratch = mkdtempSync(join(tmpdir(), 'gateway-hey-api-'));
const outDirOf = (bundle: BundleName) => join(scratch, bundle);

beforeAll(async () => {
  for (const bundle of bundles) {
    await createClient({ input: bundlePath(bundle, 'json'), output: outDirOf(bundle), logs: { level: 'silent' } });
    writeFileSync(join(outDirOf(bundle), 'probe.ts'), probe);
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * One program for every generated client: TypeScript's libraries, checked as well (skipLibCheck is
 * off), are read and checked once rather than once a client, which was most of each check. Each
 * client is modules of its own directory, importing nothing of another's.
 */
let program: ts.Program | undefined;
function programOfEveryClient(): ts.Program {
  program ??= ts.createProgram(
    bundles.flatMap((bundle) =>
      readdirSync(outDirOf(bundle), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => join(outDirOf(bundle), file)),
    ),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      skipLibCheck: false,
    },
  );
  return program;
}

describe.each(bundles)('@hey-api/openapi-ts on the published %s bundle', (bundle) => {
  const outDir = outDirOf(bundle);

  it('generates a client that type-checks strictly, with a probe that narrows every union', () => {
    const shared = programOfEveryClient();
    // This client's files and the libraries; another client's files are that client's test.
    const inAClient = (file: ts.SourceFile, dir: string) => file.fileName.startsWith(`${dir}/`);
    const files = shared
      .getSourceFiles()
      .filter((file) => inAClient(file, outDir) || !bundles.some((other) => inAClient(file, outDirOf(other))));
    expect(files.filter((file) => inAClient(file, outDir)).map((file) => file.fileName)).toContain(join(outDir, 'probe.ts'));
    const problems = files
      .flatMap((file) => ts.getPreEmitDiagnostics(shared, file))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('types quotes, create-order results, transaction data and statuses as unions of named types', () => {
    const aliases = typeAliases(join(outDir, 'types.gen.ts'));
    for (const [union, members] of Object.entries(unionsOf[bundle]!)) {
      const alias = aliases.get(union);
      expect(alias, union).toBeDefined();
      expect(containsUnknown(alias!), `${union} contains unknown`).toBe(false);
      expect(namedMembers(alias!), union).toEqual(expect.arrayContaining(members));
    }
  });

  it('types the get-routes answer as an array of route entries', () => {
    const aliases = typeAliases(join(outDir, 'types.gen.ts'));
    expect(aliases.get('GatewayRoutesV4')?.getText()).toBe('Array<GatewayRouteV2>');
    const route = aliases.get('GatewayRouteV2')!;
    expect(ts.isTypeLiteralNode(route) && route.members.map((member) => member.name?.getText()).sort()).toEqual([
      'dstChain',
      'dstToken',
      'srcChain',
      'srcToken',
    ]);
  });
});

/** The type of every exported type alias of a generated file, by name. */
function typeAliases(file: string): Map<string, ts.TypeNode> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const aliases = new Map<string, ts.TypeNode>();
  source.forEachChild((node) => {
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
  });
  return aliases;
}

/** The names of the types a union is made of, looking into `({ type: 'evm' } & GatewayEvmTxData)` members. */
function namedMembers(type: ts.TypeNode): string[] {
  return (ts.isUnionTypeNode(type) ? [...type.types] : [type]).flatMap(referencedNames);
}

function referencedNames(member: ts.TypeNode): string[] {
  if (ts.isParenthesizedTypeNode(member)) return referencedNames(member.type);
  if (ts.isIntersectionTypeNode(member)) return member.types.flatMap(referencedNames);
  return ts.isTypeReferenceNode(member) ? [member.typeName.getText()] : [];
}

function containsUnknown(type: ts.Node): boolean {
  return (
    type.kind === ts.SyntaxKind.UnknownKeyword || type.kind === ts.SyntaxKind.AnyKeyword || ts.forEachChild(type, containsUnknown) === true
  );
}
