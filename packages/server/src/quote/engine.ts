/**
 * The quote engine: from get-quote's parameters to the inner quote of one route, with its fees,
 * output after fees, resolved slippage and USD values. It checks every parameter for its chain and
 * every configured limit, and throws the documented error for the first one that fails. Sealing the
 * quote is the caller's business (see quote/service.ts).
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
import type { ChainConfig, GatewayConfig, TokenConfig } from '../config/config.js';
import { DomainError, invalidRequest, quoteAmountTooLow } from '../errors.js';
import { bps, convert, formatScaled, parseDecimal, relativeChange, usdValue } from './amounts.js';
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

/** An inner quote before it is sealed (signedQuoteData is added by the seal). */
export type UnsealedQuote = { config: Route } & (
  | { route: 'onramp'; quote: Omit<GatewayOnrampQuoteV2, 'signedQuoteData'> & { refundAddress: string | null } }
  | { route: 'offramp'; quote: Omit<GatewayOfframpQuoteV4, 'signedQuoteData'> }
  | { route: 'tokenSwap'; quote: GatewayTokenSwapQuoteV3 & { refundAddress: string | null } }
);

/**
 * Everything a quote depends on besides its parameters. Each member stays the same while the
 * process runs, or says when it changes (`prices.revision()`): quotes are issued again from a memo
 * (quote/memo.ts), so a member that changes otherwise (a live fee rate, say) must be part of that revision.
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

  const amount = BigInt(request.amount);
  const minimum = BigInt(route.minAmount);
  if (amount < minimum)
    throw new DomainError('INSUFFICIENT_AMOUNT', 'amount is below the smallest amount of this route', {
      minimum: route.minAmount,
      actual: request.amount,
    });
  if (route.maxAmount !== undefined && amount > BigInt(route.maxAmount)) {
    throw new DomainError('EXCEEDED_LIMIT', 'amount is above the largest amount of this route', {
      max: route.maxAmount,
      actual: request.amount,
    });
  }

  const slippage = resolveSlippage(request.slippage, route, config);
  const affiliates = parseAffiliates(request.affiliates, route, context, route.kind === 'onramp' ? dstChain : srcChain, routeDetails);
  const common = { context, route, amount, slippage, affiliates, request };
  switch (route.kind) {
    case 'onramp':
      return { config: route, route: 'onramp', quote: onrampQuote(common) };
    case 'offramp':
      return { config: route, route: 'offramp', quote: offrampQuote(common) };
    case 'tokenSwap':
      return { config: route, route: 'tokenSwap', quote: tokenSwapQuote(common) };
  }
}

interface QuoteInputs {
  context: QuoteEngineContext;
  route: Route;
  amount: bigint;
  slippage: number;
  affiliates: Affiliate[];
  request: QuoteRequest;
}

/** Onramp fees are taken from the converted output, in the destination token. */
function onrampQuote({ context, route, amount, slippage, affiliates, request }: QuoteInputs) {
  const gross = grossOutput(context, route, amount);
  const affiliateFees = affiliates.map((affiliate) => bps(gross, affiliate.bps));
  const breakdown = {
    solverFee: bps(gross, route.solverFeeBps),
    protocolFee: bps(gross, route.protocolFeeBps),
    affiliateFee: affiliateFees.reduce((sum, fee) => sum + fee, 0n),
    executionFee: BigInt(route.executionFee ?? '0'),
    messagingFee: BigInt(route.messagingFee ?? '0'),
  };
  const fees = Object.values(breakdown).reduce((sum, fee) => sum + fee, 0n);
  const output = afterFees(route, gross, fees);
  const amountOf = (value: bigint) => tokenAmount(context, route.dst, value);
  return {
    inputAmount: tokenAmount(context, route.src, amount),
    outputAmount: amountOf(output),
    fees: amountOf(fees),
    executionFees: amountOf(breakdown.executionFee),
    feeBreakdown: {
      solverFee: amountOf(breakdown.solverFee),
      protocolFee: amountOf(breakdown.protocolFee),
      affiliateFee: amountOf(breakdown.affiliateFee),
      executionFee: amountOf(breakdown.executionFee),
      messagingFee: amountOf(breakdown.messagingFee),
    },
    recipient: request.recipient,
    token: route.dst.address,
    slippage: String(slippage),
    dstChain: route.dstChain,
    dstToken: route.dst.address,
    ...resolvedAffiliates(context, route.dst, affiliates, affiliateFees),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    gasRefill: null,
    // The onramp's price impact leaves the execution fee out, as the description says.
    ...priceImpact(context, route, amount, output + breakdown.executionFee),
    sender: request.sender ?? null,
    strategyAddress: null,
    strategyMessage: null,
    refundAddress: request.refundAddress ?? null,
  };
}

/** Offramp fees are taken in sats from the Bitcoin payout. */
function offrampQuote({ context, route, amount, slippage, affiliates, request }: QuoteInputs) {
  const gross = grossOutput(context, route, amount);
  const affiliateFees = affiliates.map((affiliate) => bps(gross, affiliate.bps));
  const breakdown = {
    solverFee: bps(gross, route.solverFeeBps),
    inclusionFee: BigInt(Math.ceil(context.bitcoinFeeRate * context.config.bitcoin.payoutVbytes)),
    protocolFee: bps(gross, route.protocolFeeBps),
    affiliateFee: affiliateFees.reduce((sum, fee) => sum + fee, 0n),
  };
  const fees = Object.values(breakdown).reduce((sum, fee) => sum + fee, 0n);
  const output = afterFees(route, gross, fees);
  const amountOf = (value: bigint) => tokenAmount(context, route.dst, value);
  const btcPrice = context.prices.usdPrice(route.dst)!;
  return {
    srcChain: route.srcChain,
    tokenAddress: route.src.address,
    inputAmount: tokenAmount(context, route.src, amount),
    outputAmount: amountOf(output),
    totalFeeUsd: formatScaled(usdValue(fees, route.dst.decimals, btcPrice), 2),
    feeBreakdown: {
      solverFee: amountOf(breakdown.solverFee),
      inclusionFee: amountOf(breakdown.inclusionFee),
      protocolFee: amountOf(breakdown.protocolFee),
      affiliateFee: amountOf(breakdown.affiliateFee),
      fastestFeeRate: String(context.bitcoinFeeRate),
    },
    recipient: request.recipient,
    slippage,
    txTo: route.txTo,
    ...resolvedAffiliates(context, route.dst, affiliates, affiliateFees),
    estimatedTimeInSecs: route.estimatedTimeInSecs,
    ...priceImpact(context, route, amount, output),
    sender: request.sender ?? null,
    refundAddress: request.refundAddress ?? null,
    // The owner of the on-chain order is its refund claimant; V3 create-order requires it.
    ...(request.refundAddress ? { ownerAddress: request.refundAddress } : {}),
  };
}

/** Token-swap fees are taken from the input, in the source token, before the swap. */
function tokenSwapQuote({ context, route, amount, slippage, affiliates, request }: QuoteInputs) {
  const affiliate = affiliates[0];
  const fees = bps(amount, route.solverFeeBps) + bps(amount, route.protocolFeeBps) + (affiliate ? bps(amount, affiliate.bps) : 0n);
  const output = fees < amount ? convert(amount - fees, route.src.decimals, route.dst.decimals, rate(context, route)) : 0n;
  if (output <= 0n)
    throw new DomainError('INSUFFICIENT_SWAP_AMOUNT', 'nothing is left to swap after fees', {
      total_fees: fees.toString(),
      available_amount: amount.toString(),
    });
  if (route.minOutputAmount !== undefined && output < BigInt(route.minOutputAmount)) {
    throw quoteAmountTooLow(route.minOutputAmount, output.toString());
  }
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

/** The input converted to the destination token, before fees (the base of every bps fee of onramps and offramps). */
export function grossOutput(context: QuoteEngineContext, route: Route, amount: bigint): bigint {
  return convert(amount, route.src.decimals, route.dst.decimals, rate(context, route));
}

/** Whole destination tokens per whole source token: the route's rate, or the ratio of the prices. */
function rate(context: QuoteEngineContext, route: Route): bigint {
  if (route.rate !== undefined) return parseDecimal(route.rate);
  const src = context.prices.usdPrice(route.src)!;
  const dst = context.prices.usdPrice(route.dst)!;
  return (src * 10n ** 18n) / dst;
}

function tokenAmount(context: QuoteEngineContext, token: TokenConfig, amount: bigint): GatewayTokenAmountV2 {
  const price = context.prices.usdPrice(token);
  // Two literals rather than a spread of an optional member: a quote writes a dozen of these.
  return price === undefined
    ? { address: token.address, amount: amount.toString(), chain: token.chain }
    : {
        address: token.address,
        amount: amount.toString(),
        chain: token.chain,
        usd: formatScaled(usdValue(amount, token.decimals, price), 2),
      };
}

/** Output value against input value, only where both tokens have a price. */
function priceImpact(
  context: QuoteEngineContext,
  route: Route,
  input: bigint,
  output: bigint,
): { priceImpact?: string; priceImpactUsd?: string } {
  const srcPrice = context.prices.usdPrice(route.src);
  const dstPrice = context.prices.usdPrice(route.dst);
  if (srcPrice === undefined || dstPrice === undefined) return {};
  const inputUsd = usdValue(input, route.src.decimals, srcPrice);
  const outputUsd = usdValue(output, route.dst.decimals, dstPrice);
  return { priceImpact: formatScaled(relativeChange(outputUsd, inputUsd), 4), priceImpactUsd: formatScaled(outputUsd - inputUsd, 2) };
}

function resolvedAffiliates(
  context: QuoteEngineContext,
  feeToken: TokenConfig,
  affiliates: Affiliate[],
  fees: bigint[],
): { affiliateAddress: string | null; affiliates: GatewayResolvedAffiliateV2[] } {
  return {
    affiliateAddress: affiliates[0]?.address ?? null,
    affiliates: affiliates.map((affiliate, index) => ({ address: affiliate.address, fee: tokenAmount(context, feeToken, fees[index]!) })),
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
