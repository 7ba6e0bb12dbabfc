/**
 * The open questions for API review: every `x-unspecified` and `x-inferred`
 * spot of the combined bundle, as `listOpenQuestions` finds them, grouped by
 * the operation or schema they belong to.
 */
import { listOpenQuestions, type OpenApiDocument, type OpenQuestion } from '@swap-gateway/openapi';
import { publishedOperations } from '../document.js';
import { code, escapeCell, table } from '../markdown-text.js';

/** The operation or schema a question is about: the first part of its location. */
const subjectOf = (question: OpenQuestion) => question.location.split(' › ')[0] ?? question.location;

export function openQuestionsMarkdown(document: OpenApiDocument): string {
  const questions = listOpenQuestions(document);
  if (questions.length === 0) return '_The document marks no spot as unspecified or inferred._';
  const unspecified = questions.filter((question) => question.kind === 'unspecified').length;
  const groups = new Map<string, OpenQuestion[]>();
  for (const question of questions) groups.set(subjectOf(question), [...(groups.get(subjectOf(question)) ?? []), question]);

  const summary =
    `The document marks **${questions.length}** spots: **${unspecified}** where the description does not show the contract ` +
    `(\`x-unspecified\`) and **${questions.length - unspecified}** where behaviour forced a choice it leaves open (\`x-inferred\`).`;
  const operations = new Map(publishedOperations(document).map((operation) => [`${operation.method} ${operation.path}`, operation]));
  const sections = [...groups.entries()].map(([subject, entries]) => {
    const operation = operations.get(subject);
    const link = operation ? `[${operation.operationId} in the reference](op:${operation.operationId})\n\n` : '';
    const rows = entries.map((question) => [
      escapeCell(question.location.split(' › ').slice(1).join(' › ') || '(itself)'),
      `<span class="badge badge-${question.kind}">${question.kind}</span>`,
      escapeCell(question.text),
      code(question.pointer),
    ]);
    return `### ${subject}\n\n${link}${table(['Where', 'Kind', 'Question', 'Pointer'], rows)}`;
  });
  return [summary, ...sections].join('\n\n');
}
