/**
 * The reports as text for a terminal and as Markdown for a pull request or the
 * docs' migration guide. Both read the same structures; neither decides anything.
 */
import type { Change } from './compare-schema.js';
import type { OperationRef, OperationSurface, VersionReport } from './diff.js';
import type { Review, ReviewedChange } from './review.js';

const title = (operation: OperationRef): string =>
  `${operation.method} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''}`;

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Changes grouped by operation, keeping the report's order. */
function byOperation(review: Review): Array<[ReviewedChange['operation'], ReviewedChange[]]> {
  const groups = new Map<ReviewedChange['operation'], ReviewedChange[]>();
  for (const reviewed of review.changes) {
    const group = groups.get(reviewed.operation) ?? [];
    group.push(reviewed);
    groups.set(reviewed.operation, group);
  }
  return [...groups];
}

function verdict(review: Review): string {
  const breaking = review.changes.filter((reviewed) => reviewed.change.severity === 'breaking').length;
  const compatible = review.changes.length - breaking;
  const declared = review.changes.filter((reviewed) => reviewed.declaredBy).length;
  const parts = [
    `${plural(byOperation(review).length, 'operation')} changed`,
    `${plural(breaking, 'breaking change')} (${declared} declared, ${review.undeclared.length} undeclared on a released version)`,
    plural(compatible, 'compatible change'),
  ];
  return parts.join('; ');
}

const status = (reviewed: ReviewedChange): string => {
  if (reviewed.change.severity === 'compatible') return 'compatible';
  if (!reviewed.needsDeclaration) return 'breaking (unreleased version)';
  return reviewed.declaredBy ? `breaking, declared in ${reviewed.declaredBy.source}` : 'BREAKING, undeclared';
};

export function formatReviewText(review: Review): string {
  if (review.changes.length === 0) return 'No change to any operation.\n';
  const lines: string[] = [];
  for (const [operation, changes] of byOperation(review)) {
    const version = operation.version ? `, ${operation.version}${operation.released ? '' : ' (unreleased)'}` : '';
    lines.push(`${title(operation)}: ${operation.status}${version}`);
    for (const reviewed of changes) {
      lines.push(`  ${status(reviewed)}: ${reviewed.change.location}: ${reviewed.change.message}`);
    }
    lines.push('');
  }
  for (const declaration of review.rejected) {
    lines.push(`Ignored declaration "${declaration.key}" in ${declaration.source}: ${declaration.rejected}.`);
  }
  lines.push(verdict(review));
  if (review.undeclared.length > 0) {
    lines.push('', 'Declare each breaking change in a changeset that bumps @swap-gateway/openapi to major (see CONTRIBUTING.md):');
    for (const reviewed of review.undeclared) lines.push(`  Breaking-API: ${reviewed.key}`);
  }
  return `${lines.join('\n')}\n`;
}

const code = (text: string): string => `\`${text.replace(/`/g, '')}\``;
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatReviewMarkdown(review: Review): string {
  if (review.changes.length === 0) return 'No change to any operation.\n';
  const lines: string[] = ['## API changes', '', verdict(review), ''];
  for (const [operation, changes] of byOperation(review)) {
    lines.push(
      `### ${code(`${operation.method} ${operation.path}`)}${operation.operationId ? ` (${operation.operationId})` : ''}: ${operation.status}`,
      '',
    );
    lines.push('| | Where | Change |', '| --- | --- | --- |');
    for (const reviewed of changes) {
      lines.push(`| ${status(reviewed)} | ${cell(reviewed.change.location)} | ${cell(reviewed.change.message)} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function changeList(changes: Change[]): string[] {
  const lines: string[] = [];
  for (const severity of ['breaking', 'compatible'] as const) {
    const selected = changes.filter((change) => change.severity === severity);
    if (selected.length === 0) continue;
    lines.push(severity === 'breaking' ? '**Breaking for a client moving over:**' : '**Compatible:**', '');
    for (const change of selected) lines.push(`- ${code(change.location)}: ${change.message}`);
    lines.push('');
  }
  return lines;
}

function surfaceMarkdown(surface: OperationSurface): string[] {
  const lines: string[] = [];
  if (surface.parameters.length > 0) {
    lines.push('| Parameter | In | Required | Type |', '| --- | --- | --- | --- |');
    for (const parameter of surface.parameters) {
      lines.push(`| ${code(parameter.name)} | ${parameter.in} | ${parameter.required ? 'yes' : 'no'} | ${cell(parameter.type)} |`);
    }
    lines.push('');
  } else {
    lines.push('No parameters.', '');
  }
  if (surface.requestBody) {
    const { required, schema, fields } = surface.requestBody;
    lines.push(`Request body (${required ? 'required' : 'optional'}${schema ? `, ${code(schema)}` : ''}):`, '');
    lines.push('| Field | Required | Type | Unknown fields |', '| --- | --- | --- | --- |');
    for (const field of fields) {
      lines.push(
        `| ${field.path ? code(field.path) : '(body)'} | ${field.required ? 'yes' : 'no'} | ${cell(field.type)} | ${field.closed ? 'refused' : ''} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    `Responses: ${surface.responses.map((response) => `${response.status}${response.schema ? ` ${code(response.schema)}` : ''}`).join(', ')}.`,
    '',
  );
  return lines;
}

/** The migration report: each operation of the newer version against its counterpart. */
export function formatVersionsMarkdown(report: VersionReport): string {
  const from = report.from.toUpperCase();
  const to = report.to.toUpperCase();
  const lines: string[] = [
    `## ${from} → ${to}`,
    '',
    `Each ${to} operation is compared with the ${from} operation at the same path under \`/${report.from}/\`.`,
    `"Breaking" means a ${from} client has to change to call the ${to} operation.`,
    '',
    `| ${to} operation | ${from} counterpart | Breaking | Compatible |`,
    '| --- | --- | --- | --- |',
  ];
  for (const operation of report.operations) {
    const breaking = operation.changes.filter((change) => change.severity === 'breaking').length;
    const counterpart = operation.counterpart
      ? code(`${operation.counterpart.method} ${operation.counterpart.path}`)
      : `none (new in ${to})`;
    const counts = operation.counterpart ? `| ${breaking} | ${operation.changes.length - breaking} |` : '| | |';
    lines.push(`| ${code(`${operation.method} ${operation.path}`)} | ${counterpart} ${counts}`);
  }
  lines.push('');
  for (const operation of report.operations) {
    lines.push(`### ${title(operation)}`, '');
    if (!operation.counterpart) {
      lines.push(
        `No ${from} counterpart: \`${operation.path.replace(/^\/v\d+/i, `/${report.from}`)}\` does not exist. What it takes and gives:`,
        '',
      );
      lines.push(...surfaceMarkdown(operation.surface!));
    } else if (operation.changes.length === 0) {
      lines.push(`Same as ${title(operation.counterpart)}.`, '');
    } else {
      lines.push(`Compared with ${title(operation.counterpart)}.`, '', ...changeList(operation.changes));
    }
  }
  for (const dropped of report.dropped) {
    lines.push(`### ${title(dropped)}`, '', `Not in ${to}: no operation at \`${dropped.path.replace(/^\/v\d+/i, `/${report.to}`)}\`.`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
