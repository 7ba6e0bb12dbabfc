/**
 * Integer arithmetic on token amounts (bigint, smallest units) and decimal prices (bigint scaled by
 * 10^18). No floating point touches an amount.
 */
const scale = 10n ** 18n;

/**
 * 10^0 to 10^38, made once: a quote needs a power of ten for every amount it writes.
 * Measured (bench/README.md): 10^e 309-389 → 13-16 ns.
 */
const powersOfTen = Array.from({ length: 39 }, (_, exponent) => 10n ** BigInt(exponent));
const tenTo = (exponent: number): bigint => powersOfTen[exponent] ?? 10n ** BigInt(exponent);

/** A decimal string ("97000", "0.25") as a bigint scaled by 10^18. */
export function parseDecimal(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,18}))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal number: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const value = BigInt(whole!) * scale + BigInt(fraction.padEnd(18, '0'));
  return sign ? -value : value;
}

/** A value scaled by 10^18 as a decimal string with `places` decimals, truncated toward zero. */
export function formatScaled(value: bigint, places: number): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const truncated = magnitude / tenTo(18 - places);
  const digits = truncated.toString().padStart(places + 1, '0');
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return negative && truncated !== 0n ? `-${text}` : text;
}

/** Converts an amount between two tokens at `rate` whole output tokens per whole input token (scaled). */
export function convert(amount: bigint, fromDecimals: number, toDecimals: number, rate: bigint): bigint {
  return (amount * rate * tenTo(toDecimals)) / (tenTo(fromDecimals) * scale);
}

/** An amount whose conversion at `rate` is at most `output`: convert's inverse, rounded down. */
export function largestInputFor(output: bigint, fromDecimals: number, toDecimals: number, rate: bigint): bigint {
  return (output * tenTo(fromDecimals) * scale) / (rate * tenTo(toDecimals));
}

/** USD value (scaled) of an amount of a token with a price (scaled). */
export function usdValue(amount: bigint, decimals: number, price: bigint): bigint {
  return (amount * price) / tenTo(decimals);
}

/** `part` basis points of `amount`, rounded down. */
export const bps = (amount: bigint, basisPoints: number): bigint => (amount * BigInt(basisPoints)) / 10_000n;

/** (a - b) / b as a scaled fraction. */
export function relativeChange(to: bigint, from: bigint): bigint {
  return from === 0n ? 0n : ((to - from) * scale) / from;
}
