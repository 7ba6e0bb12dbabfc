/**
 * The quote engine: from get-quote's parameters to the inner quote of one route, as a plain object,
 * with its fees, output after fees, resolved slippage and USD values. It checks every parameter for
 * its chain and every configured limit, in one order (chains, tokens and route, the parties'
 * addresses, the amount's bounds, slippage, affiliates, then what the fees leave), and throws the
 * documented error of the first that fails. Sealing the quote is quote/service.ts's business.
 */
import type {
  GatewayOfframpQuoteV4,
  GatewayOnrampQuoteV2,
  GatewayResolvedAffiliateV2,
  GatewayTokenAmountV2,
  GatewayTokenSwapQuoteV3,
} from '@swap-gateway/types';
import { addressFormat, isValidAddress } from '../chains/addresses.js';
import { largestAmount } from '../chains/amounts.js';
import type { BitcoinNetwork } from '../chains/bitcoin-lib.js';
import type { Catalogue, Route } from '../config/catalogue.js';
import type { ChainConfig, GatewayConfig, TokenConfig } from '../config/config.js';
import { DomainError, invalidRequest, quoteAmountTooLow } from '../errors.js';
import { bps, convert, formatScaled, largestInputFor, parseDecimal, relativeChange, usdValue } from './amounts.js';
import type { PriceSource } from './prices.js';

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

type OnrampQuote = GatewayOnrampQuoteV2 & { refundAddress: string | null };
type OfframpQuote = GatewayOfframpQuoteV4 & { signedQuoteData: string };
type TokenSwapQuote = GatewayTokenSwapQuoteV3 & { refundAddress: string | null; signedQuoteData: string };

/**
 * An inner quote before it is sealed: its `signedQuoteData` is empty, written last, and the seal's
 * copy of it (quote/service.ts) sets it.
 */
export type UnsealedQuote = { config: Route } & (
  | { route: 'onramp'; quote: OnrampQuote }
  | { route: 'offramp'; quote: OfframpQuote }
  | { route: 'tokenSwap'; quote: TokenSwapQuote }
);

/**
 * Everything a quote depends on besides its parameters. Each member stays the same while the
 * process runs, or says when it changes (`prices.revision()`): quotes are kept in a memo by their
 * parameters and that revision (quote/memo.ts), so a member that changes otherwise (a live fee
 * rate, say) must be part of that revision.
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

export function computeQuote(request: QuoteRequest, context: QuoteEngineContext): UnsealedQuote {
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

  checkAddress(context, dstChain, request.recipient, 'recipient');
  if (request.sender !== undefined) checkAddress(context, srcChain, request.sender, 'sender');
  if (request.refundAddress !== undefined) checkAddress(context, srcChain, request.refundAddress, 'refundAddress');
  const quoteRate = rate(context, route);
  const amount = checkAmount(route, request.amount, largestInput(route, srcChain, dstChain, quoteRate));
  const slippage = resolveSlippage(request.slippage, route, config);
  const affiliates = parseAffiliates(request.affiliates, route, context, route.kind === 'onramp' ? dstChain : srcChain, routeDetails);
  const inputs: QuoteInputs = { context, route, amount, slippage, affiliates, request, rate: quoteRate };
  switch (route.kind) {
    case 'onramp':
      return { route: 'onramp', config: route, quote: onrampQuote(inputs) };
    case 'offramp':
      return { route: 'offramp', config: route, quote: offrampQuote(inputs) };
    case 'tokenSwap':
      return { route: 'tokenSwap', config: route, quote: tokenSwapQuote(inputs) };
  }
}

/**
 * The amount within the route's bounds (the largest from `largestInput`), as a bigint. The details
 * (INSUFFICIENT_AMOUNT's `expected` and `actual`, EXCEEDED_LIMIT's `limit`) are the shapes the
 * document ties to those codes.
 */
function checkAmount(route: Route, given: string, largest: bigint): bigint {
  const amount = BigInt(given);
  if (amount < BigInt(route.minAmount))
    throw new DomainError('INSUFFICIENT_AMOUNT', 'amount is below the smallest amount of this route', {
      expected: route.minAmount,
      actual: given,
    });
  if (amount > largest)
    throw new DomainError('EXCEEDED_LIMIT', `amount ${given} is above the largest amount of this route`, { limit: largest.toString() });
  return amount;
}

/**
 * The largest amount a route takes: its own maxAmount, the most one transfer moves on its source
 * chain, and an amount whose output before fees (fees only lower it) the chains that carry the
 * output can move: its destination, and for an offramp or token swap the source transaction, which
 * writes the least output too.
 */
function largestInput(route: Route, srcChain: ChainConfig, dstChain: ChainConfig, rate: bigint): bigint {
  const carried = route.kind === 'onramp' ? [dstChain.kind] : [dstChain.kind, srcChain.kind];
  const largestOutput = min(...carried.map((kind) => largestAmount[kind]));
  return min(
    largestAmount[srcChain.kind],
    ...(route.maxAmount === undefined ? [] : [BigInt(route.maxAmount)]),
    // A rate of zero leaves no output to bound.
    ...(rate > 0n ? [largestInputFor(largestOutput, route.src.decimals, route.dst.decimals, rate)] : []),
  );
}

/** The least of bigints (Math.min takes numbers only). */
function min(...values: bigint[]): bigint {
  let least = values[0]!;
  for (const value of values) if (value < least) least = value;
  return least;
}

interface QuoteInputs {
  context: QuoteEngineContext;
  route: Route;
  amount: bigint;
  slippage: number;
  affiliates: Affiliate[];
  request: QuoteRequest;
  rate: bigint;
}

/** The fees of onramps and offramps: bps of the converted input, in the destination token, with fixed fees besides. */
function conversion({ route, amount, affiliates, rate }: QuoteInputs, fixedFees: bigint) {
  const gross = grossOutput(route, amount, rate);
  const affiliateFees = affiliates.map((affiliate) => bps(gross, affiliate.bps));
  const solverFee = bps(gross, route.solverFeeBps);
  const protocolFee = bps(gross, route.protocolFeeBps);
  const affiliateFee = affiliateFees.reduce((sum, fee) => sum + fee, 0n);
  const fees = solverFee + protocolFee + affiliateFee + fixedFees;
  if (fees >= gross)
    throw new DomainError('UNABLE_TO_COVER_FEES', 'amount does not cover the fees', {
      total_fees: fees.toString(),
      available_amount: gross.toString(),
    });
  const output = gross - fees;
  checkMinOutput(route, output);
  return { output, fees, solverFee, protocolFee, affiliateFees, affiliateFee };
}

/** Onramp fees are taken from the converted output, in the destination token. */
function onrampQuote(inputs: QuoteInputs): OnrampQuote {
  const { context, route, amount, slippage, request } = inputs;
  const executionFee = BigInt(route.executionFee ?? '0');
  const messagingFee = BigInt(route.messagingFee ?? '0');
  const { output, fees, solverFee, protocolFee, affiliateFees, affiliateFee } = conversion(inputs, executionFee + messagingFee);
  const inDestination = (value: bigint) => tokenAmount(context, route.dst, value);
  return {
    inputAmount: tokenAmount(context, route.src, amount),
    outputAmount: inDestination(output),
    fees: inDestination(fees),
    executionFees: inDestination(executionFee),
    feeBreakdown: {
      solverFee: inDestination(solverFee),
      protocolFee: inDestination(protocolFee),
      affiliateFee: inDestination(affiliateFee),
      executionFee: inDestination(executionFee),
      messagingFee: inDestination(messagingFee),
    },
    recipient: request.recipient,
    token: route.dst.address,
    slippage: String(slippage),
    dstChain: route.dstChain,
    dstToken: route.dst.address,
    ...resolvedAffiliates(inputs, affiliateFees),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    gasRefill: null,
    // The onramp's price impact leaves the execution fee out, as the description says.
    ...priceImpact(context, route, amount, output + executionFee),
    sender: request.sender ?? null,
    strategyAddress: null,
    strategyMessage: null,
    refundAddress: request.refundAddress ?? null,
    signedQuoteData: '',
  };
}

/** Offramp fees are taken in sats from the Bitcoin payout. */
function offrampQuote(inputs: QuoteInputs): OfframpQuote {
  const { context, route, amount, slippage, request } = inputs;
  const inclusionFee = BigInt(Math.ceil(context.bitcoinFeeRate * context.config.bitcoin.payoutVbytes));
  const { output, fees, solverFee, protocolFee, affiliateFees, affiliateFee } = conversion(inputs, inclusionFee);
  const inBitcoin = (value: bigint) => tokenAmount(context, route.dst, value);
  const btcPrice = context.prices.usdPrice(route.dst)!;
  return {
    srcChain: route.srcChain,
    tokenAddress: route.src.address,
    inputAmount: tokenAmount(context, route.src, amount),
    outputAmount: inBitcoin(output),
    totalFeeUsd: formatScaled(usdValue(fees, route.dst.decimals, btcPrice), 2),
    feeBreakdown: {
      solverFee: inBitcoin(solverFee),
      inclusionFee: inBitcoin(inclusionFee),
      protocolFee: inBitcoin(protocolFee),
      affiliateFee: inBitcoin(affiliateFee),
      fastestFeeRate: String(context.bitcoinFeeRate),
    },
    recipient: request.recipient,
    slippage,
    txTo: route.txTo,
    ...resolvedAffiliates(inputs, affiliateFees),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    ...priceImpact(context, route, amount, output),
    sender: request.sender ?? null,
    refundAddress: request.refundAddress ?? null,
    // The owner of the on-chain order is its refund claimant; V3 create-order requires it.
    ...(request.refundAddress ? { ownerAddress: request.refundAddress } : {}),
    signedQuoteData: '',
  };
}

/** Token-swap fees are taken from the input, in the source token, before the swap. */
function tokenSwapQuote({ context, route, amount, slippage, affiliates, request, rate }: QuoteInputs): TokenSwapQuote {
  const affiliate = affiliates[0];
  const feesOf = (input: bigint) =>
    bps(input, route.solverFeeBps) + bps(input, route.protocolFeeBps) + (affiliate ? bps(input, affiliate.bps) : 0n);
  const outputOf = (input: bigint, fees = feesOf(input)) =>
    fees < input ? convert(input - fees, route.src.decimals, route.dst.decimals, rate) : 0n;
  const fees = feesOf(amount);
  const output = outputOf(amount, fees);
  if (output <= 0n)
    throw new DomainError('INSUFFICIENT_SWAP_AMOUNT', 'nothing is left to swap after fees', {
      required: smallestSwappable(outputOf, amount).toString(),
      available: amount.toString(),
    });
  checkMinOutput(route, output);
  return {
    srcChain: route.srcChain,
    dstChain: route.dstChain,
    inputAmount: tokenAmount(context, route.src, amount),
    outputAmount: tokenAmount(context, route.dst, output),
    fees: tokenAmount(context, route.src, fees),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    recipient: request.recipient,
    slippage,
    txTo: route.txTo,
    ...(affiliate ? { affiliate: { address: affiliate.address, bps: affiliate.bps } } : {}),
    ...priceImpact(context, route, amount, output),
    sender: request.sender ?? null,
    refundAddress: request.refundAddress ?? null,
    signedQuoteData: '',
  };
}

/**
 * INSUFFICIENT_SWAP_AMOUNT's `required`: the smallest amount above `short` (which leaves nothing to
 * swap) whose output after fees is positive, found by doubling, then halving the gap (the output
 * grows with the amount, give or take each fee's rounding, so the amount found leaves something and
 * the one below it does not). A rate that leaves nothing of any amount is a configuration fault.
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

/** QUOTE_AMOUNT_TOO_LOW when the output after fees is below the route's smallest. */
function checkMinOutput(route: Route, output: bigint): void {
  if (route.minOutputAmount !== undefined && output < BigInt(route.minOutputAmount)) {
    throw quoteAmountTooLow(route.minOutputAmount, output.toString());
  }
}

/**
 * An amount of a token, with its USD value where the token has a price. Each shape is written whole:
 * on Node 20's V8 an object that starts with a spread and is given more members (`{ ...base, usd }`)
 * outlived scavenges, and the young generation's pauses grew. (A spread that sets a member the
 * object has, as quote/service.ts seals a quote, is not such an object.)
 * Measured (bench/README.md): the moving market's scavenge pauses 2.6-3.3 → 1.0 ms, p99 4.92-5.39 → 3.42-3.84 ms.
 */
function tokenAmount(context: QuoteEngineContext, token: TokenConfig, amount: bigint): GatewayTokenAmountV2 {
  const price = context.prices.usdPrice(token);
  const { address, chain } = token;
  if (price === undefined) return { address, amount: amount.toString(), chain };
  return { address, amount: amount.toString(), chain, usd: formatScaled(usdValue(amount, token.decimals, price), 2) };
}

/** Output value against input value, only where both tokens have a price. */
function priceImpact(context: QuoteEngineContext, route: Route, input: bigint, output: bigint) {
  const srcPrice = context.prices.usdPrice(route.src);
  const dstPrice = context.prices.usdPrice(route.dst);
  if (srcPrice === undefined || dstPrice === undefined) return {};
  const inputUsd = usdValue(input, route.src.decimals, srcPrice);
  const outputUsd = usdValue(output, route.dst.decimals, dstPrice);
  return { priceImpact: formatScaled(relativeChange(outputUsd, inputUsd), 4), priceImpactUsd: formatScaled(outputUsd - inputUsd, 2) };
}

/** The affiliates of an onramp or offramp quote, each with its fee in the destination token. */
function resolvedAffiliates({ context, route, affiliates }: QuoteInputs, fees: bigint[]) {
  const resolved: GatewayResolvedAffiliateV2[] = affiliates.map(({ address }, index) => ({
    address,
    fee: tokenAmount(context, route.dst, fees[index]!),
  }));
  return { affiliateAddress: affiliates[0]?.address ?? null, affiliates: resolved };
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
  if (chain.kind !== 'bitcoin') checkAddress(context, chain, address, name, 'token address');
  throw invalidRequest(`${name} ${address} is not a token on ${chain.id}`, {
    expected: `a token listed by get-routes on ${chain.id}`,
    actual: address,
  });
}

function checkAddress(context: QuoteEngineContext, chain: ChainConfig, address: string, name: string, what = 'address'): void {
  if (!isValidAddress(chain.kind, address, context.bitcoinNetwork)) {
    throw invalidRequest(`${name} is not a valid ${what} on ${chain.id}`, { message: `${name} must be ${addressFormat[chain.kind]}` });
  }
}
