/** Guide sections about the operations: the lists on the landing page and the code-samples page. */
import type { PublishedOperation } from '../document.js';
import { samplesOf, type Sample } from '../samples.js';
import { code, escapeCell, fence, table } from '../markdown-text.js';

const methodBadge = (method: string) => `<span class="method method-${method.toLowerCase()}">${method}</span>`;

export function operationsTableMarkdown(operations: PublishedOperation[]): string {
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

/**
 * The same sample in several languages, as one group: each labelled with its language and file; the
 * site's samples.js turns a group into tabs and shows the language the reader chose last.
 */
export function sampleGroupMarkdown(samples: Sample[]): string {
  const blocks = samples.map(
    (sample) =>
      `<p class="sample-label" data-language="${sample.language.key}">${sample.language.label} <span class="muted">${sample.relativePath}</span></p>\n\n${fence(sample.language.highlight, sample.source)}`,
  );
  return `<div class="sample-group">\n\n${blocks.join('\n\n')}\n\n</div>`;
}

/** Every operation with its samples in every language, as files the tests run. */
export function codeSamplesMarkdown(operations: PublishedOperation[]): string {
  return operations
    .map((operation) => {
      const samples = sampleGroupMarkdown(samplesOf(operation));
      return `### ${operation.summary} (${operation.version.toUpperCase()})\n\n${methodBadge(operation.method)} ${code(operation.path)} · [${operation.operationId} in the reference](op:${operation.operationId})\n\n${samples}`;
    })
    .join('\n\n');
}
