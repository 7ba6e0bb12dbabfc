// Amounts are integers in the smallest unit, as strings: convert with BigInt, never with floating point.

/** A decimal string ("0.0125") to the smallest unit of a token with `decimals` decimals. */
function toSmallestUnit(display: string, decimals: number): string {
  const [whole = '0', fraction = ''] = display.split('.');
  if (fraction.length > decimals) throw new RangeError(`${display} has more than ${decimals} decimals`);
  return (BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')).toString();
}

/** The smallest unit back to a decimal string, for display. */
function fromSmallestUnit(amount: string, decimals: number): string {
  const value = BigInt(amount);
  const unit = 10n ** BigInt(decimals);
  return `${value / unit}.${(value % unit).toString().padStart(decimals, '0')}`;
}

console.log(toSmallestUnit('0.0125', 8)); // 1250000 sats: the `amount` of get-quote
console.log(fromSmallestUnit('993000', 8)); // 0.00993000: an onramp quote's outputAmount on BOB
console.log(toSmallestUnit('250', 6)); // 250000000: 250 USDC
