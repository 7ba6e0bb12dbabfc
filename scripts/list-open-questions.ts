/**
 * Lists every x-unspecified and x-inferred spot of the combined bundle with its sentence.
 *
 *   pnpm open-questions            a Markdown table
 *   pnpm open-questions --json     the list as JSON
 *
 * Needs the bundle: run `pnpm build` first.
 */
import { listOpenQuestions, loadBundle } from '@swap-gateway/openapi';

const questions = listOpenQuestions(loadBundle('gateway'));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(questions, null, 2));
} else {
  console.log('| kind | where | pointer | open question |');
  console.log('| --- | --- | --- | --- |');
  for (const { kind, location, pointer, text } of questions) {
    console.log(`| ${kind} | ${location} | \`${pointer}\` | ${text.replace(/\|/g, '\\|')} |`);
  }
  console.log(
    `\n${questions.filter((q) => q.kind === 'unspecified').length} unspecified, ${questions.filter((q) => q.kind === 'inferred').length} inferred.`,
  );
}
