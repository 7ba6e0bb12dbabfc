/** Small helpers that write the Markdown of the generated sections. */

/** Inline code, with a fence long enough for the backticks inside. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${text.startsWith('`') ? ' ' : ''}${text}${text.endsWith('`') ? ' ' : ''}${fence}`;
}

/** Text made safe for one cell of a Markdown table. */
export function escapeCell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

export function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A fenced code block. */
export function fence(language: string, source: string): string {
  const longest = Math.max(2, ...[...source.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${source.replace(/\n+$/, '')}\n${marks}`;
}
