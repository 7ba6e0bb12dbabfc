/**
 * An operation under /vN/ carries its version: its operationId ends in `VN` and
 * its only tag is `VN`. Given a path item, keyed by its path.
 */
const methods = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

export default function versionedOperation(pathItem, _options, context) {
  const path = context.path[context.path.length - 1];
  const version = /^\/v(\d+)\//.exec(String(path))?.[1];
  if (!version || typeof pathItem !== 'object' || pathItem === null) return [];
  const suffix = `V${version}`;
  const problems = [];
  for (const method of methods) {
    const operation = pathItem[method];
    if (!operation) continue;
    const at = [...context.path, method];
    if (typeof operation.operationId !== 'string' || !operation.operationId.endsWith(suffix)) {
      problems.push({ message: `operationId of ${method.toUpperCase()} ${path} must end in "${suffix}".`, path: [...at, 'operationId'] });
    }
    const tags = operation.tags ?? [];
    if (tags.length !== 1 || tags[0] !== suffix) {
      problems.push({
        message: `${method.toUpperCase()} ${path} must be tagged with its version only ("${suffix}").`,
        path: [...at, 'tags'],
      });
    }
  }
  return problems;
}
