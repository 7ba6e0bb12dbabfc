/**
 * A description (or summary) that names an error code whose condition the API
 * description does not show sits on a node whose x-inferred or x-unspecified
 * names that code: a condition of such a code is this document's reading or this
 * gateway's behaviour, and a reader must see it marked as such.
 *
 * Given the whole unresolved document; options.shown lists the codes whose
 * condition the description shows, which may be named unmarked. The codes are
 * read from the document's error-code schemas (GatewayErrorCode*). Examples are
 * left out: they are the sandbox server's answers, and each error response says
 * so. The rule cannot tell which condition a sentence gives a shown code; it
 * catches the unmarked naming of every other code.
 */
const markers = ['x-inferred', 'x-unspecified'];
const texts = ['description', 'summary'];
const isObject = (node) => node !== null && typeof node === 'object';

/** Every code of the error-code schemas: their enums and those of their anyOf/oneOf branches. */
function errorCodes(document) {
  const codes = new Set();
  const schemas = isObject(document) && isObject(document.components) ? document.components.schemas : undefined;
  if (!isObject(schemas)) return codes;
  const collect = (schema) => {
    if (!isObject(schema)) return;
    if (Array.isArray(schema.enum)) for (const code of schema.enum) if (typeof code === 'string') codes.add(code);
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) collect(branch);
  };
  for (const [name, schema] of Object.entries(schemas)) if (name.startsWith('GatewayErrorCode')) collect(schema);
  return codes;
}

const names = (text, code) => new RegExp(`(^|[^A-Z0-9_])${code}([^A-Z0-9_]|$)`).test(text);

export default function codeConditionMarked(document, options, context) {
  if (!isObject(document)) return [];
  const shown = new Set(options?.shown ?? []);
  // The multi-file sources keep their schemas in other files: read the codes from the resolved document too.
  const codes = new Set([...errorCodes(document), ...errorCodes(context.documentInventory?.resolved)]);
  const unshown = [...codes].filter((code) => !shown.has(code));
  const problems = [];
  const visit = (node, path) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, [...path, index]);
      return;
    }
    if (!isObject(node)) return;
    const marks = markers.map((key) => (typeof node[key] === 'string' ? node[key] : '')).join(' ');
    for (const key of texts) {
      if (typeof node[key] !== 'string') continue;
      for (const code of unshown) {
        if (names(node[key], code) && !names(marks, code))
          problems.push({
            message: `${code} is named here, but the description shows no condition for it: mark it (x-inferred or x-unspecified naming ${code}).`,
            path: [...path, key],
          });
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
      visit(value, [...path, key]);
    }
  };
  visit(document, [...context.path]);
  return problems;
}
