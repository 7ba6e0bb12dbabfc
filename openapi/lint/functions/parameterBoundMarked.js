/**
 * A bound on a parameter's schema (a length, pattern, range, enum or format)
 * is either one the API description gives (options.shown, as "name.keyword")
 * or marked: the schema carries an x-inferred or x-unspecified saying whose
 * bound it is. A bound refuses requests, so an unmarked one reads as the API's.
 *
 * Given a parameter object (unresolved); a schema that is a $ref is the
 * referenced model's business and is left alone.
 */
const bounds = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'enum',
  'const',
  'minItems',
  'maxItems',
];

export default function parameterBoundMarked(parameter, options, context) {
  if (!parameter || typeof parameter !== 'object' || typeof parameter.name !== 'string') return [];
  const schema = parameter.schema;
  if (!schema || typeof schema !== 'object' || schema.$ref) return [];
  const shown = new Set(options?.shown ?? []);
  const marked = typeof schema['x-inferred'] === 'string' || typeof schema['x-unspecified'] === 'string';
  if (marked) return [];
  return bounds
    .filter((keyword) => keyword in schema && !shown.has(`${parameter.name}.${keyword}`))
    .map((keyword) => ({
      message: `Parameter "${parameter.name}" has ${keyword}, which the description does not give: mark its schema (x-inferred or x-unspecified).`,
      path: [...context.path, 'schema', keyword],
    }));
}
