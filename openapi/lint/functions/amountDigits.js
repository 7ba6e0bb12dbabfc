/**
 * An amount carried as a string is an integer in the smallest unit of its
 * token: a string of digits, `pattern: '^[0-9]+$'`. Given a schema (of a
 * property or parameter whose name says it is an amount).
 */
const digits = '^[0-9]+$';

export default function amountDigits(schema) {
  if (!schema || typeof schema !== 'object') return [];
  const types = [].concat(schema.type ?? []);
  if (!types.includes('string')) return [];
  return schema.pattern === digits ? [] : [{ message: `A string amount must have pattern '${digits}'.` }];
}
