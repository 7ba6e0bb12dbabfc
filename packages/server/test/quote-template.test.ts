import { loadBundle } from '@swap-gateway/openapi';
import { describe, expect, it } from 'vitest';
import { bitcoinNetwork } from '../src/chains/bitcoin-lib.js';
import { Catalogue, type Route } from '../src/config/catalogue.js';
import type { ChainKind } from '../src/config/config.js';
import { DomainError } from '../src/errors.js';
import { loadConfig } from '../src/index.js';
import { type OpenParameters, planQuote, type QuoteEngineContext, type QuoteRequest } from '../src/quote/engine.js';
import { ConfiguredPrices } from '../src/quote/prices.js';
import { QuoteSeal } from '../src/quote/seal.js';
import { sealedFields } from '../src/quote/sealed-fields.js';
import { Figure, fill, QuoteTemplate } from '../src/quote/template.js';
import { affiliate, btcUser, deniedAddress, evmUser, solanaUser, tronUser, usdcSolana, usdtTron } from './helpers.js';

const config = loadConfig({ env: {} });
const catalogue = new Catalogue(config);
const context: QuoteEngineContext = {
  config,
  catalogue,
  prices: new ConfiguredPrices(),
  bitcoinNetwork: bitcoinNetwork(config.bitcoin.network),
  bitcoinFeeRate: 7,
};
const seal = new QuoteSeal('template tests', sealedFields(loadBundle('gateway')));

const userOn: Record<ChainKind, string> = { bitcoin: btcUser, evm: evmUser, tron: tronUser, solana: solanaUser };
const userOnChain = (chain: string) => userOn[catalogue.kindOf(chain)!];
/** Other valid addresses of each kind of chain (the tokens' own, mostly). */
const otherOn: Record<ChainKind, string> = { bitcoin: deniedAddress, evm: affiliate, tron: usdtTron, solana: usdcSolana };

/** The open parameters of a request with this amount; every other amount with other parties. */
function openParameters(route: Route, request: QuoteRequest, amount: string, index: number): OpenParameters {
  if (index % 2 === 0) return { ...request, amount };
  const other = (given: string | undefined, chain: string) => given && otherOn[catalogue.kindOf(chain)!];
  return {
    amount,
    recipient: other(request.recipient, route.dstChain)!,
    sender: other(request.sender, route.srcChain),
    refundAddress: other(request.refundAddress, route.srcChain),
  };
}

/** Requests for a route: its bare parameters, and with every optional one its kind of route takes. */
function requestsFor(route: Route): QuoteRequest[] {
  const bare: QuoteRequest = {
    srcChain: route.srcChain,
    dstChain: route.dstChain,
    srcToken: route.src.address,
    dstToken: route.dst.address,
    amount: route.minAmount,
    recipient: userOnChain(route.dstChain),
  };
  const affiliateChain = route.kind === 'onramp' ? route.dstChain : route.srcChain;
  const takesAffiliates = route.affiliateFees && catalogue.kindOf(affiliateChain) === 'evm';
  // A token swap takes one affiliate, onramps and offramps several.
  const affiliates = Array.from({ length: route.kind === 'tokenSwap' ? 1 : 2 }, (_, index) => `${affiliate}:${10 + index}`).join(',');
  const everything: QuoteRequest = {
    ...bare,
    sender: userOnChain(route.srcChain),
    refundAddress: userOnChain(route.srcChain),
    slippage: String(config.slippage.minBps),
    ...(takesAffiliates ? { affiliates } : {}),
  };
  return [bare, everything];
}

/** Amounts from the route's minimum up, over many orders of magnitude, and odd ones. */
function amountsFor(route: Route): string[] {
  const minimum = BigInt(route.minAmount);
  const amounts = [minimum, minimum + 1n, minimum * 3n + 7n];
  for (let power = 0n; power < 12n; power++) amounts.push(minimum + 10n ** power * 123_456_789n);
  const maximum = route.maxAmount === undefined ? undefined : BigInt(route.maxAmount);
  return amounts.filter((amount) => maximum === undefined || amount <= maximum).map(String);
}

describe('QuoteTemplate', () => {
  it('writes, for every route of the sandbox and many amounts and parties, what JSON.stringify and the seal write for the filled shape', () => {
    let checked = 0;
    for (const route of catalogue.enabledRoutes()) {
      for (const request of requestsFor(route)) {
        const plan = planQuote(request, context);
        const template = new QuoteTemplate(plan.route, plan.shape, (quote) => seal.form(plan.route, quote));
        for (const [index, amount] of amountsFor(route).entries()) {
          let figures: unknown;
          try {
            figures = plan.figures(openParameters(route, request, amount, index));
          } catch (error) {
            // An amount that leaves too little after fees is refused, not written.
            expect(error, `${route.srcChain} > ${route.dstChain} ${amount}`).toBeInstanceOf(DomainError);
            continue;
          }
          const quote = fill(plan.shape, figures) as object;
          // The first write serializes the filled shape; the second compiles the template; the rest use it.
          for (const _ of [1, 2, 3]) {
            expect(template.write(figures)).toEqual({ json: JSON.stringify({ [plan.route]: quote }), form: seal.form(plan.route, quote) });
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('writes a USD value and a price impact only where the tokens have prices, from the prices read when planned', () => {
    const priced = catalogue.enabledRoutes().find((route) => route.kind === 'onramp')!;
    const unpriced = catalogue.enabledRoutes().find((route) => route.rate !== undefined)!;
    const write = (route: Route) => {
      const plan = planQuote(requestsFor(route)[0]!, context);
      const template = new QuoteTemplate(plan.route, plan.shape, (quote) => seal.form(plan.route, quote));
      const request = requestsFor(route)[0]!;
      template.write(plan.figures(request));
      return JSON.parse(template.write(plan.figures(request)).json)[plan.route];
    };
    expect(write(priced)).toMatchObject({ inputAmount: { usd: expect.any(String) }, priceImpact: expect.any(String) });
    const quote = write(unpriced);
    expect(quote.outputAmount.usd).toBeDefined();
    expect(quote.inputAmount.usd).toBeUndefined();
    expect(quote.priceImpact).toBeUndefined();
  });

  it('sizes a template from its shape about as it keeps it once compiled', () => {
    for (const route of catalogue.enabledRoutes()) {
      const request = requestsFor(route)[1]!;
      const plan = planQuote(request, context);
      const template = new QuoteTemplate(plan.route, plan.shape, (quote) => seal.form(plan.route, quote));
      const estimated = template.size;
      for (const _ of [1, 2]) template.write(plan.figures({ ...request, amount: amountsFor(route).at(-1)! }));
      expect(estimated / template.size, `${route.srcChain} > ${route.dstChain}`).toBeGreaterThan(0.8);
      expect(estimated / template.size, `${route.srcChain} > ${route.dstChain}`).toBeLessThan(1.25);
    }
  });

  it('refuses to compile a shape with a figure where the sealed form does not write it as a string of its own', () => {
    // The document makes inputAmount.amount a string: an array there is sealed whole, as canonical JSON.
    const template = new QuoteTemplate('onramp', { inputAmount: { amount: ['a', new Figure(() => '1')] } }, (quote) =>
      seal.form('onramp', quote),
    );
    expect(template.write({}).json).toBe('{"onramp":{"inputAmount":{"amount":["a","1"]}}}');
    expect(() => template.write({})).toThrow('a quote template found 0 holes for 1 figures');
  });
});
