/**
 * A one-key union (a oneOf whose branches are all objects of exactly one
 * property, like onramp | offramp | tokenSwap) must keep its branches mutually
 * exclusive without a discriminator: each branch requires its key and forbids
 * any other, and no two branches share a key.
 */
const singleKey = (branch) =>
  branch && typeof branch === 'object' && branch.properties && Object.keys(branch.properties).length === 1
    ? Object.keys(branch.properties)[0]
    : undefined;

export default function oneKeyUnion(oneOf, _options, context) {
  if (!Array.isArray(oneOf) || oneOf.length < 2) return [];
  const keys = oneOf.map(singleKey);
  if (keys.some((key) => key === undefined)) return [];
  const problems = [];
  oneOf.forEach((branch, index) => {
    const key = keys[index];
    const at = [...context.path, index];
    if (branch.additionalProperties !== false) {
      problems.push({ message: `One-key branch "${key}" must set additionalProperties: false.`, path: at });
    }
    const required = branch.required ?? [];
    if (required.length !== 1 || required[0] !== key) {
      problems.push({ message: `One-key branch "${key}" must require exactly its key.`, path: at });
    }
  });
  const duplicates = keys.filter((key, index) => keys.indexOf(key) !== index);
  for (const key of new Set(duplicates)) {
    problems.push({ message: `Two branches of a one-key union share the key "${key}".`, path: context.path });
  }
  return problems;
}
