/**
 * Every request body and every response body of an operation comes with at
 * least one named example. Given an operation.
 */
function mediaProblems(content, at, what) {
  return Object.entries(content ?? {}).flatMap(([type, media]) => {
    const examples = media?.examples;
    return examples && typeof examples === 'object' && Object.keys(examples).length > 0
      ? []
      : [{ message: `${what} (${type}) needs at least one named example.`, path: [...at, 'content', type] }];
  });
}

export default function operationExamples(operation, _options, context) {
  if (!operation || typeof operation !== 'object') return [];
  const problems = mediaProblems(operation.requestBody?.content, [...context.path, 'requestBody'], 'The request body');
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    problems.push(...mediaProblems(response?.content, [...context.path, 'responses', status], `Response ${status}`));
  }
  return problems;
}
