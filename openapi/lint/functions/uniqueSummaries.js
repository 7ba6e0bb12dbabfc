/**
 * No two operations share a summary: renderers and generators list operations
 * by summary, and "Get an order" twice (V3 and V4) cannot be told apart.
 * Given the paths object.
 */
const methods = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

export default function uniqueSummaries(paths) {
  if (!paths || typeof paths !== 'object') return [];
  const seen = new Map();
  const problems = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of methods) {
      const summary = item?.[method]?.summary;
      if (typeof summary !== 'string') continue;
      const key = summary.trim().toLowerCase();
      if (seen.has(key))
        problems.push({ message: `"${summary}" is also the summary of ${seen.get(key)}.`, path: ['paths', path, method, 'summary'] });
      else seen.set(key, `${method.toUpperCase()} ${path}`);
    }
  }
  return problems;
}
