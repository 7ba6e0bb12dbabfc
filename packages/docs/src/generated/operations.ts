/** Generated sections about the operations: the lists on the landing page and the code-samples page. */
import type { Operation } from '../document.js';
import { samplesOf } from '../samples.js';
import { code, escapeCell, fence, table } from '../markdown-text.js';

const methodBadge = (method: string) => `<span class="method method-${method}">${method.toUpperCase()}</span>`;

export function operationsTableMarkdown(operations: Operation[]): string {
  return table(
    ['', 'Path', 'Operation', ''],
    operations.map((operation) => [
      methodBadge(operation.method),
      code(operation.path),
      escapeCell(operation.summary),
      `[${operation.operationId}](op:${operation.operationId})`,
    ]),
  );
}

/** Every operation with its curl and TypeScript samples, as files the tests run. */
export function codeSamplesMarkdown(operations: Operation[]): string {
  return operations
    .map((operation) => {
      const samples = samplesOf(operation)
        .map((sample) => `<p class="sample-label">${sample.language.label} <span class="muted">${sample.relativePath}</span></p>\n\n${fence(sample.language.highlight, sample.source)}`)
        .join('\n\n');
      return `### ${operation.summary} (${operation.version.toUpperCase()})\n\n${methodBadge(operation.method)} ${code(operation.path)} · [${operation.operationId} in the reference](op:${operation.operationId})\n\n${samples}`;
    })
    .join('\n\n');
}
