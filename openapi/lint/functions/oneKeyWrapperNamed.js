/**
 * Every one-key wrapper of a union (a branch like `{ onramp: ... }` or
 * `{ success: ... }`) is a named component, referenced with $ref: generators
 * name a type after its component, and an inline branch becomes an anonymous
 * type that integrators cannot import. Given an unresolved oneOf.
 *
 * A set of detail shapes that mixes one-key and wider objects (the error
 * details) is not a wrapper union and is left alone.
 */
const isInlineObject = (branch) => branch && typeof branch === 'object' && !branch.$ref && branch.properties;
const width = (branch) => Object.keys(branch.properties).length;

export default function oneKeyWrapperNamed(oneOf, _options, context) {
  if (!Array.isArray(oneOf) || oneOf.length < 2) return [];
  const inline = oneOf.map((branch, index) => [branch, index]).filter(([branch]) => isInlineObject(branch));
  if (inline.some(([branch]) => width(branch) !== 1)) return [];
  return inline.map(([branch, index]) => ({
    message: `One-key branch "${Object.keys(branch.properties)[0]}" must be a named component referenced with $ref, so that generators name its type.`,
    path: [...context.path, index],
  }));
}
