/**
 * A union whose every branch requires a `const` tag of one name (like `type`
 * of GatewayTxData) declares it: `discriminator: { propertyName, mapping }`,
 * one mapping entry per tag pointing at its branch, and `type: string` beside
 * each `const`, so that generators narrow on the tag. Any other union carries
 * no discriminator: Prism ignores discriminators, so a union must be exclusive
 * on its own, which a required `const` tag guarantees.
 *
 * Given an unresolved schema that has a oneOf; local $refs are followed in the
 * document, and a union whose branches cannot be read (another file) is skipped.
 */
function follow(node, root) {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops += 1) {
    if (!current.$ref.startsWith('#/')) return undefined;
    current = current.$ref
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((value, segment) => (value && typeof value === 'object' ? value[segment] : undefined), root);
  }
  return current;
}

const tagsOf = (branch) =>
  Object.entries(branch?.properties ?? {})
    .filter(([name, property]) => property && property.const !== undefined && (branch.required ?? []).includes(name))
    .map(([name]) => name);

export default function taggedUnion(schema, _options, context) {
  if (!schema || !Array.isArray(schema.oneOf) || schema.oneOf.length < 2) return [];
  const branches = schema.oneOf.map((branch) => follow(branch, context.document.data));
  if (branches.some((branch) => !branch || typeof branch !== 'object')) return [];
  const tag = tagsOf(branches[0]).find((name) => branches.every((branch) => tagsOf(branch).includes(name)));
  const discriminator = schema.discriminator;
  const at = context.path;
  if (!tag) {
    return discriminator
      ? [
          {
            message:
              'A discriminator belongs only on a union whose every branch requires a const tag of its name; Prism ignores it, so the union must be exclusive on its own.',
            path: [...at, 'discriminator'],
          },
        ]
      : [];
  }
  const values = branches.map((branch) => branch.properties[tag].const);
  if (new Set(values).size !== values.length) return [{ message: `Two branches share the tag ${tag}.`, path: at }];
  if (!discriminator)
    return [
      {
        message: `This union is tagged by "${tag}": declare discriminator { propertyName: ${tag}, mapping } so that generators narrow on it.`,
        path: at,
      },
    ];
  const problems = [];
  if (discriminator.propertyName !== tag)
    problems.push({ message: `The discriminator must name the tag "${tag}".`, path: [...at, 'discriminator', 'propertyName'] });
  const mapping = discriminator.mapping ?? {};
  branches.forEach((branch, index) => {
    const value = values[index];
    const ref = schema.oneOf[index].$ref;
    if (!(value in mapping))
      problems.push({ message: `The discriminator mapping lacks the tag "${value}".`, path: [...at, 'discriminator'] });
    else if (ref && mapping[value] !== ref)
      problems.push({
        message: `The mapping of "${value}" must point at its branch ${ref}.`,
        path: [...at, 'discriminator', 'mapping', value],
      });
    if (branch.properties[tag].type !== 'string')
      problems.push({
        message: `The tag "${tag}" of branch "${value}" needs type: string beside its const.`,
        path: [...at, 'oneOf', index],
      });
  });
  for (const key of Object.keys(mapping)) {
    if (!values.includes(key))
      problems.push({
        message: `The discriminator maps "${key}", which no branch carries.`,
        path: [...at, 'discriminator', 'mapping', key],
      });
  }
  return problems;
}
