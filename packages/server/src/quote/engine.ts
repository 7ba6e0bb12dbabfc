/**
 * The quote engine: from get-quote's parameters to the inner quote of one route, with its fees,
 * output after fees, resolved slippage and USD values. It checks every parameter for its chain and
 * every configured limit, and throws the documented error for the first one that fails. A quote is
 * planned from every parameter but its open ones (the amount and the parties' addresses), and the
 * plan gives the figures of any of them (`planQuote`); writing and sealing it is the caller's
 * business (see quote/service.ts).
 */
import type {
  GatewayOfframpQuoteV4,
  GatewayOnrampQuoteV2,
  GatewayResolvedAffiliateV2,
  GatewayTokenAmountV2,
  GatewayTokenSwapQuoteV3,
} from '@swap-gateway/types';
import { addressFormat, isValidAddress } from '../chains/addresses.js';
import type { BitcoinNetwork } from '../chains/bitcoin-lib.js';
import type { Catalogue, Route } from '../config/catalogue.js';
import type { ChainConfig, GatewayConfig, RouteKind, TokenConfig } from '../config/config.js';
import { DomainError, invalidRequest, quoteAmountTooLow } from '../errors.js';
import { bps, convert, formatScaled, parseDecimal, relativeChange, usdValue } from './amounts.js';
import type { PriceSource } from './prices.js';
import { Figure, fill, type Shape } from './template.js';

export interface QuoteRequest {
  srcChain: string;
  dstChain: string;
  sender?: string;
  recipient: string;
  srcToken: string;
  dstToken: string;
  amount: string;
  slippage?: string;
  affiliates?: string;
  refundAddress?: string;
}

/** An inner quote before it is sealed (signedQuoteData is added by the seal). */
export type UnsealedQuote = { config: Route } & (
  | { route: 'onramp'; quote: Omit<GatewayOnrampQuoteV2, 'signedQuoteData'> & { refundAddress: string | null } }
  | { route: 'offramp'; quote: Omit<GatewayOfframpQuoteV4, 'signedQuoteData'> }
  | { route: 'tokenSwap'; quote: GatewayTokenSwapQuoteV3 & { refundAddress: string | null } }
);

/**
 * The parameters a plan leaves open: the amount, and the addresses of the quote's parties, which the
 * quote repeats and nothing else in it depends on. One plan serves every request that differs from
 * another only in them (whether a sender or a refund address is given at all is part of the plan:
 * the quote's shape differs). Each is checked for every quote.
 */
export type OpenParameters = Pick<QuoteRequest, 'amount' | 'recipient' | 'sender' | 'refundAddress'>;

/**
 * Everything a quote depends on besides its parameters. Each member stays the same while the
 * process runs, or says when it changes (`prices.revision()`): quote plans, which read it once, are
 * kept in a memo (quote/memo.ts), so a member that changes otherwise (a live fee rate, say) must be
 * part of that revision.
 */
export interface QuoteEngineContext {
  config: GatewayConfig;
  catalogue: Catalogue;
  prices: PriceSource;
  bitcoinNetwork: BitcoinNetwork;
  bitcoinFeeRate: number;
}

interface Affiliate {
  address: string;
  bps: number;
  /** The bps as the request wrote them, for error details (a huge number would print as 1e+23). */
  given: string;
}

/**
 * A quote of any open parameters for the others: its route, its shape (the quote's members, each one
 * that depends on an open parameter a Figure, see quote/template.ts), and the figures of one set of
 * open parameters. Everything it reads from the context (prices, rates, the fee rate) is read when
 * it is made.
 */
export interface QuotePlan {
  route: RouteKind;
  config: Route;
  shape: object;
  /**
   * The figures of a quote of these open parameters; checks them first (the addresses, then the
   * amount's bounds) and throws the documented error for the first that fails.
   */
  figures(open: OpenParameters): unknown;
}

/** The quote of a request: its plan, filled with the figures of its open parameters. */
export function computeQuote(request: QuoteRequest, context: QuoteEngineContext): UnsealedQuote {
  const { route, config, shape, figures } = planQuote(request, context);
  return { route, config, quote: fill(shape, figures(request)) } as UnsealedQuote;
}

/**
 * The plan for every parameter of the request but its open ones. get-quote checks the parameters in
 * one order: chains, tokens and route, then the open ones (addresses, the amount's bounds), then
 * slippage and affiliates. The plan checks all but the open ones, which its figures check for every
 * quote; when a check after them fails, the open parameters are checked first, so that a request with
 * several faults is answered with the same one whether or not a plan was kept.
 */
export function planQuote(request: QuoteRequest, context: QuoteEngineContext): QuotePlan {
  const { catalogue, config } = context;
  const srcChain = catalogue.chain(request.srcChain);
  if (!srcChain)
    throw invalidRequest(`unknown source chain ${request.srcChain}`, {
      expected: `one of ${catalogue.chainIds().join(', ')}`,
      actual: request.srcChain,
    });
  const dstChain = catalogue.chain(request.dstChain);
  if (!dstChain) {
    throw new DomainError('INVALID_DESTINATION_CHAIN_ID', 'unknown destination chain', {
      expected: `one of ${catalogue.chainIds().join(', ')}`,
      actual: request.dstChain,
    });
  }
  for (const chain of [srcChain, dstChain]) {
    if (!catalogue.isEnabled(chain)) throw new DomainError('DISABLED_CHAIN', `chain ${chain.id} is disabled`, { message: chain.id });
  }
  const srcToken = knownToken(context, srcChain, request.srcToken, 'srcToken');
  const dstToken = knownToken(context, dstChain, request.dstToken, 'dstToken');
  const route = catalogue.route(srcChain.id, srcToken.address, dstChain.id, dstToken.address);
  const routeDetails = { src_chain: srcChain.id, src_token: request.srcToken, dst_chain: dstChain.id, dst_token: request.dstToken };
  if (!route) throw new DomainError('NO_ROUTE', `no route from ${srcChain.id} to ${dstChain.id} for these tokens`, routeDetails);

  /** The addresses checked last: a user trying amounts sends the same ones again. */
  let checked: Omit<OpenParameters, 'amount'> | undefined;
  const checkOpen = (open: OpenParameters): bigint => {
    if (
      !checked ||
      checked.recipient !== open.recipient ||
      checked.sender !== open.sender ||
      checked.refundAddress !== open.refundAddress
    ) {
      checkAddress(context, dstChain, open.recipient, 'recipient');
      if (open.sender !== undefined) checkAddress(context, srcChain, open.sender, 'sender');
      if (open.refundAddress !== undefined) checkAddress(context, srcChain, open.refundAddress, 'refundAddress');
      for (const address of [open.recipient, open.sender, open.refundAddress]) {
        if (address !== undefined && !writtenAsIs.test(address))
          throw new Error(`an address passed its chain's check with a character a quote template would have to escape: ${address}`);
      }
      checked = { recipient: open.recipient, sender: open.sender, refundAddress: open.refundAddress };
    }
    return checkAmount(route, open.amount);
  };
  try {
    const slippage = resolveSlippage(request.slippage, route, config);
    const affiliates = parseAffiliates(request.affiliates, route, context, route.kind === 'onramp' ? dstChain : srcChain, routeDetails);
    const inputs = { context, route, slippage, affiliates, request, checkOpen, rate: rate(context, route) };
    switch (route.kind) {
      case 'onramp':
        return onrampPlan(inputs);
      case 'offramp':
        return offrampPlan(inputs);
      case 'tokenSwap':
        return tokenSwapPlan(inputs);
    }
  } catch (error) {
    // Whatever fails after the route (a check, or a price the feed lacks), the open parameters' fault comes first.
    checkOpen(request);
    throw error;
  }
}

/** What every chain's addresses are made of (hex, Base58, bech32): written into a quote's texts without escaping. */
const writtenAsIs = /^[0-9A-Za-z]+$/;

/**
 * The amount (the request's digits) within the route's bounds, as a bigint. Below the smallest,
 * INSUFFICIENT_AMOUNT says it in `expected` (the amount asked in `actual`); above the largest,
 * EXCEEDED_LIMIT in `limit`: the shapes the document ties to those codes.
 */
function checkAmount(route: Route, given: string): bigint {
  const amount = BigInt(given);
  if (amount < BigInt(route.minAmount))
    throw new DomainError('INSUFFICIENT_AMOUNT', 'amount is below the smallest amount of this route', {
      expected: route.minAmount,
      actual: given,
    });
  if (route.maxAmount !== undefined && amount > BigInt(route.maxAmount)) {
    throw new DomainError('EXCEEDED_LIMIT', `amount ${given} is above the largest amount of this route`, {
      limit: route.maxAmount,
    });
  }
  return amount;
}

interface PlanInputs {
  context: QuoteEngineContext;
  route: Route;
  slippage: number;
  affiliates: Affiliate[];
  /** The request the plan is made for: only whether it has a sender and a refund address counts. */
  request: QuoteRequest;
  /** Checks the open parameters, and gives the amount. */
  checkOpen(open: OpenParameters): bigint;
  /** The route's rate (see `rate`), read once for the plan. */
  rate: bigint;
}

/** A token amount, fixed or a figure, given as a value or as what picks it from the figures. */
type AmountOf<Figures> = bigint | ((figures: Figures) => bigint);

/** Figures carry the open parameters they are of: the quote repeats the parties' addresses. */
interface OpenFigures {
  open: OpenParameters;
}

/** The figures of onramps and offramps: their fees are bps of the converted input, in the destination token. */
interface ConversionFigures extends OpenFigures {
  amount: bigint;
  output: bigint;
  fees: bigint;
  solverFee: bigint;
  protocolFee: bigint;
  affiliateFees: bigint[];
  affiliateFee: bigint;
}

/** The figures of a conversion of the plan's route, with fees of fixed amounts besides its bps fees. */
function conversionFigures({ route, affiliates, checkOpen, rate }: PlanInputs, fixedFees: bigint) {
  return (open: OpenParameters): ConversionFigures => {
    const amount = checkOpen(open);
    const gross = grossOutput(route, amount, rate);
    const affiliateFees = affiliates.map((affiliate) => bps(gross, affiliate.bps));
    const solverFee = bps(gross, route.solverFeeBps);
    const protocolFee = bps(gross, route.protocolFeeBps);
    const affiliateFee = affiliateFees.reduce((sum, fee) => sum + fee, 0n);
    const fees = solverFee + protocolFee + affiliateFee + fixedFees;
    return { open, amount, output: afterFees(route, gross, fees), fees, solverFee, protocolFee, affiliateFees, affiliateFee };
  };
}

type OnrampQuote = Omit<GatewayOnrampQuoteV2, 'signedQuoteData'> & { refundAddress: string | null };

/** Onramp fees are taken from the converted output, in the destination token. */
function onrampPlan(inputs: PlanInputs): QuotePlan {
  const { context, route, slippage, affiliates, request } = inputs;
  const parties = partiesOf<ConversionFigures>(request);
  const executionFee = BigInt(route.executionFee ?? '0');
  const messagingFee = BigInt(route.messagingFee ?? '0');
  const amountOf = (value: AmountOf<ConversionFigures>) => tokenAmount(context, route.dst, value);
  const shape: Shape<OnrampQuote, ConversionFigures> = {
    inputAmount: tokenAmount(context, route.src, (figures: ConversionFigures) => figures.amount),
    outputAmount: amountOf((figures) => figures.output),
    fees: amountOf((figures) => figures.fees),
    executionFees: amountOf(executionFee),
    feeBreakdown: {
      solverFee: amountOf((figures) => figures.solverFee),
      protocolFee: amountOf((figures) => figures.protocolFee),
      affiliateFee: amountOf((figures) => figures.affiliateFee),
      executionFee: amountOf(executionFee),
      messagingFee: amountOf(messagingFee),
    },
    recipient: parties.recipient,
    token: route.dst.address,
    slippage: String(slippage),
    dstChain: route.dstChain,
    dstToken: route.dst.address,
    ...resolvedAffiliates(context, route.dst, affiliates, (figures: ConversionFigures, index) => figures.affiliateFees[index]!),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    gasRefill: null,
    // The onramp's price impact leaves the execution fee out, as the description says.
    ...priceImpact(context, route, (figures: ConversionFigures) => [figures.amount, figures.output + executionFee]),
    sender: parties.sender,
    strategyAddress: null,
    strategyMessage: null,
    refundAddress: parties.refundAddress,
  };
  return { route: 'onramp', config: route, shape, figures: conversionFigures(inputs, executionFee + messagingFee) };
}

type OfframpQuote = Omit<GatewayOfframpQuoteV4, 'signedQuoteData'>;

/** Offramp fees are taken in sats from the Bitcoin payout. */
function offrampPlan(inputs: PlanInputs): QuotePlan {
  const { context, route, slippage, affiliates, request } = inputs;
  const parties = partiesOf<ConversionFigures>(request);
  const inclusionFee = BigInt(Math.ceil(context.bitcoinFeeRate * context.config.bitcoin.payoutVbytes));
  const amountOf = (value: AmountOf<ConversionFigures>) => tokenAmount(context, route.dst, value);
  const btcPrice = context.prices.usdPrice(route.dst)!;
  const shape: Shape<OfframpQuote, ConversionFigures> = {
    srcChain: route.srcChain,
    tokenAddress: route.src.address,
    inputAmount: tokenAmount(context, route.src, (figures: ConversionFigures) => figures.amount),
    outputAmount: amountOf((figures) => figures.output),
    totalFeeUsd: new Figure((figures: ConversionFigures) => formatScaled(usdValue(figures.fees, route.dst.decimals, btcPrice), 2)),
    feeBreakdown: {
      solverFee: amountOf((figures) => figures.solverFee),
      inclusionFee: amountOf(inclusionFee),
      protocolFee: amountOf((figures) => figures.protocolFee),
      affiliateFee: amountOf((figures) => figures.affiliateFee),
      fastestFeeRate: String(context.bitcoinFeeRate),
    },
    recipient: parties.recipient,
    slippage,
    txTo: route.txTo,
    ...resolvedAffiliates(context, route.dst, affiliates, (figures: ConversionFigures, index) => figures.affiliateFees[index]!),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    ...priceImpact(context, route, (figures: ConversionFigures) => [figures.amount, figures.output]),
    sender: parties.sender,
    refundAddress: parties.refundAddress,
    // The owner of the on-chain order is its refund claimant; V3 create-order requires it.
    ...(parties.refundAddress ? { ownerAddress: parties.refundAddress } : {}),
  };
  return { route: 'offramp', config: route, shape, figures: conversionFigures(inputs, inclusionFee) };
}

interface TokenSwapFigures extends OpenFigures {
  amount: bigint;
  output: bigint;
  fees: bigint;
}

type TokenSwapQuote = GatewayTokenSwapQuoteV3 & { refundAddress: string | null };

/** Token-swap fees are taken from the input, in the source token, before the swap. */
function tokenSwapPlan({ context, route, slippage, affiliates, request, checkOpen, rate }: PlanInputs): QuotePlan {
  const affiliate = affiliates[0];
  const parties = partiesOf<TokenSwapFigures>(request);
  const feesOf = (amount: bigint) =>
    bps(amount, route.solverFeeBps) + bps(amount, route.protocolFeeBps) + (affiliate ? bps(amount, affiliate.bps) : 0n);
  const outputOf = (amount: bigint, fees = feesOf(amount)) =>
    fees < amount ? convert(amount - fees, route.src.decimals, route.dst.decimals, rate) : 0n;
  const figures = (open: OpenParameters): TokenSwapFigures => {
    const amount = checkOpen(open);
    const fees = feesOf(amount);
    const output = outputOf(amount, fees);
    if (output <= 0n)
      throw new DomainError('INSUFFICIENT_SWAP_AMOUNT', 'nothing is left to swap after fees', {
        required: smallestSwappable(outputOf, amount).toString(),
        available: amount.toString(),
      });
    if (route.minOutputAmount !== undefined && output < BigInt(route.minOutputAmount)) {
      throw quoteAmountTooLow(route.minOutputAmount, output.toString());
    }
    return { open, amount, output, fees };
  };
  const shape: Shape<TokenSwapQuote, TokenSwapFigures> = {
    srcChain: route.srcChain,
    dstChain: route.dstChain,
    inputAmount: tokenAmount(context, route.src, (figures: TokenSwapFigures) => figures.amount),
    outputAmount: tokenAmount(context, route.dst, (figures: TokenSwapFigures) => figures.output),
    fees: tokenAmount(context, route.src, (figures: TokenSwapFigures) => figures.fees),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    recipient: parties.recipient,
    slippage,
    txTo: route.txTo,
    ...(affiliate ? { affiliate: { address: affiliate.address, bps: affiliate.bps } } : {}),
    ...priceImpact(context, route, (figures: TokenSwapFigures) => [figures.amount, figures.output]),
    sender: parties.sender,
    refundAddress: parties.refundAddress,
  };
  return { route: 'tokenSwap', config: route, shape, figures };
}

/**
 * INSUFFICIENT_SWAP_AMOUNT's `required`: the smallest amount above `short` (an amount that leaves
 * nothing to swap) whose output after fees is positive, found by doubling, then halving the gap
 * (the output grows with the amount, give or take the rounding of each fee, so the amount found
 * leaves something and the one below it does not). A rate that leaves nothing of any amount is a
 * fault of the configuration.
 */
function smallestSwappable(outputOf: (amount: bigint) => bigint, short: bigint): bigint {
  let low = short;
  let high = short > 0n ? short * 2n : 1n;
  for (let doublings = 0; outputOf(high) <= 0n; doublings++) {
    if (doublings === 256) throw new Error('the route leaves nothing to swap of any amount: its rate is zero');
    low = high;
    high *= 2n;
  }
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (outputOf(middle) > 0n) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The parties' addresses as the quote repeats them: figures of the open parameters, or null where the
 * plan's request has none (then no request sharing the plan has one). An address that passed its
 * chain's check is letters and digits (checkOpen makes sure): nothing in it needs escaping in the
 * quote's texts.
 */
function partiesOf<Figures extends OpenFigures>(request: QuoteRequest) {
  const address = (name: 'recipient' | 'sender' | 'refundAddress') => new Figure((figures: Figures) => figures.open[name]!);
  return {
    recipient: address('recipient'),
    sender: request.sender === undefined ? null : address('sender'),
    refundAddress: request.refundAddress === undefined ? null : address('refundAddress'),
  };
}

function afterFees(route: Route, gross: bigint, fees: bigint): bigint {
  if (fees >= gross)
    throw new DomainError('UNABLE_TO_COVER_FEES', 'amount does not cover the fees', {
      total_fees: fees.toString(),
      available_amount: gross.toString(),
    });
  const output = gross - fees;
  if (route.minOutputAmount !== undefined && output < BigInt(route.minOutputAmount)) {
    throw quoteAmountTooLow(route.minOutputAmount, output.toString());
  }
  return output;
}

/** The input converted to the destination token, before fees (the base of every bps fee of onramps and offramps): what re-quoting reads back. */
export function grossOutput(route: Route, amount: bigint, rate: bigint): bigint {
  return convert(amount, route.src.decimals, route.dst.decimals, rate);
}

/** Whole destination tokens per whole source token: the route's rate, or the ratio of the prices. */
export function rate(context: QuoteEngineContext, route: Route): bigint {
  if (route.rate !== undefined) return parseDecimal(route.rate);
  const src = context.prices.usdPrice(route.src)!;
  const dst = context.prices.usdPrice(route.dst)!;
  return (src * 10n ** 18n) / dst;
}

function tokenAmount<Figures>(
  context: QuoteEngineContext,
  token: TokenConfig,
  value: AmountOf<Figures>,
): Shape<GatewayTokenAmountV2, Figures> {
  const price = context.prices.usdPrice(token);
  const text = (of: (amount: bigint) => string) =>
    typeof value === 'bigint' ? of(value) : new Figure((figures: Figures) => of(value(figures)));
  const amount = text((amount) => amount.toString());
  return price === undefined
    ? { address: token.address, amount, chain: token.chain }
    : {
        address: token.address,
        amount,
        chain: token.chain,
        usd: text((amount) => formatScaled(usdValue(amount, token.decimals, price), 2)),
      };
}

/** Output value against input value (both picked from the figures), only where both tokens have a price. */
function priceImpact<Figures>(
  context: QuoteEngineContext,
  route: Route,
  inputAndOutput: (figures: Figures) => [bigint, bigint],
): { priceImpact?: Figure<Figures>; priceImpactUsd?: Figure<Figures> } {
  const srcPrice = context.prices.usdPrice(route.src);
  const dstPrice = context.prices.usdPrice(route.dst);
  if (srcPrice === undefined || dstPrice === undefined) return {};
  const usd = (figures: Figures) => {
    const [input, output] = inputAndOutput(figures);
    return [usdValue(input, route.src.decimals, srcPrice), usdValue(output, route.dst.decimals, dstPrice)] as const;
  };
  return {
    priceImpact: new Figure((figures: Figures) => {
      const [inputUsd, outputUsd] = usd(figures);
      return formatScaled(relativeChange(outputUsd, inputUsd), 4);
    }),
    priceImpactUsd: new Figure((figures: Figures) => {
      const [inputUsd, outputUsd] = usd(figures);
      return formatScaled(outputUsd - inputUsd, 2);
    }),
  };
}

function resolvedAffiliates<Figures>(
  context: QuoteEngineContext,
  feeToken: TokenConfig,
  affiliates: Affiliate[],
  feeOf: (figures: Figures, index: number) => bigint,
): { affiliateAddress: string | null; affiliates: Array<Shape<GatewayResolvedAffiliateV2, Figures>> } {
  return {
    affiliateAddress: affiliates[0]?.address ?? null,
    affiliates: affiliates.map((affiliate, index) => ({
      address: affiliate.address,
      fee: tokenAmount(context, feeToken, (figures: Figures) => feeOf(figures, index)),
    })),
  };
}

function resolveSlippage(given: string | undefined, route: Route, config: GatewayConfig): number {
  if (given === undefined) return route.defaultSlippageBps;
  const slippage = Number(given);
  const { minBps, maxBps } = config.slippage;
  if (slippage < minBps)
    throw new DomainError('SLIPPAGE_TOO_LOW', `slippage of ${given} bps is below the minimum of ${minBps} bps`, {
      minimum: String(minBps),
      actual: given,
    });
  if (slippage > maxBps)
    throw new DomainError('SLIPPAGE_TOO_HIGH', `slippage of ${given} bps is above the maximum of ${maxBps} bps`, {
      max: String(maxBps),
      actual: given,
    });
  return slippage;
}

/** `<address>:<bps>` pairs (the parameter's pattern is checked by the document's schema). */
function parseAffiliates(
  given: string | undefined,
  route: Route,
  context: QuoteEngineContext,
  chain: ChainConfig,
  routeDetails: Record<string, string>,
): Affiliate[] {
  if (given === undefined) return [];
  const affiliates = given.split(',').map((pair) => {
    const separator = pair.lastIndexOf(':');
    const given = pair.slice(separator + 1);
    return { address: pair.slice(0, separator), bps: Number(given), given };
  });
  if (route.kind === 'tokenSwap' && affiliates.length > 1) {
    throw new DomainError('TOO_MANY_AFFILIATES', 'a token swap takes at most one affiliate', {
      max: '1',
      actual: String(affiliates.length),
    });
  }
  if (!route.affiliateFees)
    throw new DomainError('AFFILIATE_FEES_NOT_SUPPORTED_FOR_ROUTE', 'this route takes no affiliate fees', routeDetails);
  const maxBps = context.config.affiliates.maxBps;
  for (const affiliate of affiliates) {
    if (affiliate.bps > maxBps) {
      throw new DomainError('INVALID_AFFILIATE_FEE', `affiliate fee of ${affiliate.given} bps is out of range`, {
        max: String(maxBps),
        actual: affiliate.given,
      });
    }
    checkAddress(context, chain, affiliate.address, 'affiliate address');
  }
  return affiliates;
}

function knownToken(context: QuoteEngineContext, chain: ChainConfig, address: string, name: string): TokenConfig {
  const token = context.catalogue.token(chain.id, address);
  if (token) return token;
  if (chain.kind !== 'bitcoin' && !isValidAddress(chain.kind, address, context.bitcoinNetwork)) {
    throw invalidRequest(`${name} is not a valid token address on ${chain.id}`, {
      message: `${name} must be ${addressFormat[chain.kind]}`,
    });
  }
  throw invalidRequest(`${name} ${address} is not a token on ${chain.id}`, {
    expected: `a token listed by get-routes on ${chain.id}`,
    actual: address,
  });
}

function checkAddress(context: QuoteEngineContext, chain: ChainConfig, address: string, name: string): void {
  if (!isValidAddress(chain.kind, address, context.bitcoinNetwork)) {
    throw invalidRequest(`${name} is not a valid address on ${chain.id}`, { message: `${name} must be ${addressFormat[chain.kind]}` });
  }
}
