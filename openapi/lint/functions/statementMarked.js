/**
 * A description that states a given convention (options.statement, a regular
 * expression) carries the marker that names its source (options.marker, e.g.
 * x-inferred, whose sentence must match options.source): a convention that the
 * API description does not state is marked wherever it is stated, not only at
 * one place of several.
 *
 * Given the whole unresolved document. Examples are left out: they illustrate,
 * and their values are data.
 */
const isObject = (node) => node !== null && typeof node === 'object';

export default function statementMarked(document, options, context) {
  if (!isObject(document)) return [];
  const statement = new RegExp(options.statement, 'i');
  const source = new RegExp(options.source, 'i');
  const marker = options.marker;
  const problems = [];
  const visit = (node, path) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, [...path, index]);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.description === 'string' && statement.test(node.description)) {
      const mark = node[marker];
      if (typeof mark !== 'string' || !source.test(mark))
        problems.push({
          message: `This description states ${options.name}; it needs an ${marker} naming its source (${options.source}).`,
          path: [...path, 'description'],
        });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
      visit(value, [...path, key]);
    }
  };
  visit(document, [...context.path]);
  return problems;
}
