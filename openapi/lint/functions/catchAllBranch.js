/**
 * No branch of a union accepts any value: `anyOf: [array, {}]` makes
 * generators type the whole union as `unknown`, and no validator can check
 * it. Where a body is not shown, the schema itself is left open with its
 * x-unspecified mark instead. Given the branches of a oneOf or anyOf.
 */
const constraining = ['$ref', 'type', 'const', 'enum', 'properties', 'items', 'oneOf', 'anyOf', 'allOf', 'not', 'required', 'pattern'];

export default function catchAllBranch(branches, _options, context) {
  if (!Array.isArray(branches)) return [];
  return branches.flatMap((branch, index) =>
    branch && typeof branch === 'object' && !constraining.some((keyword) => keyword in branch)
      ? [
          {
            message: 'A union branch that accepts any value turns the union into `unknown` for generators.',
            path: [...context.path, index],
          },
        ]
      : [],
  );
}
