/**
 * Every error code says when it came (`x-introduced-in`: base, V2, V3 or V4)
 * and what it means (`x-enumDescriptions`), for exactly the codes of its enum.
 * Given an error-code schema; walks its anyOf branches.
 */
const versions = new Set(['base', 'V2', 'V3', 'V4']);

function checkEnum(schema, at) {
  const codes = schema.enum ?? [];
  const introduced = schema['x-introduced-in'] ?? {};
  const meanings = schema['x-enumDescriptions'] ?? {};
  const problems = [];
  for (const code of codes) {
    if (!versions.has(introduced[code])) problems.push({ message: `Code ${code} needs x-introduced-in (base, V2, V3 or V4).`, path: at });
    if (typeof meanings[code] !== 'string' || meanings[code].trim() === '')
      problems.push({ message: `Code ${code} needs a meaning in x-enumDescriptions.`, path: at });
  }
  for (const key of new Set([...Object.keys(introduced), ...Object.keys(meanings)])) {
    if (!codes.includes(key)) problems.push({ message: `${key} is documented but not in the enum.`, path: at });
  }
  return problems;
}

export default function errorCodesDocumented(schema, _options, context) {
  if (!schema || typeof schema !== 'object') return [];
  if (Array.isArray(schema.enum)) return checkEnum(schema, context.path);
  const branches = schema.anyOf ?? [];
  const own = branches.filter((branch) => Array.isArray(branch?.enum));
  if (own.length === 0 && !branches.some((branch) => branch?.$ref)) {
    return [{ message: 'An error-code schema must be an enum, or an anyOf of error-code schemas.', path: context.path }];
  }
  return branches.flatMap((branch, index) => (Array.isArray(branch?.enum) ? checkEnum(branch, [...context.path, 'anyOf', index]) : []));
}
