// `npm test`: Biome on the code, then every package's lint and tests through turbo, its output shown
// as it comes; at the end, the ten slowest test files of the run (vitest's per-file times), so that
// whoever makes the loop slower sees where. Exits with the run's status.
import { spawn } from 'node:child_process';

const steps = [
  ['pnpm', ['lint:code']],
  ['pnpm', ['exec', 'turbo', 'run', 'lint', 'test', '--concurrency=2']],
];

let output = '';
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk) => {
        (stream === child.stdout ? process.stdout : process.stderr).write(chunk);
        output += chunk.toString();
      });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let status = 0;
for (const [command, args] of steps) {
  status = await run(command, args);
  if (status !== 0) break;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC [ ... m are the terminal colours the output carries, removed here.
const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
const files = [];
/** The contract suite runs once per target: its files are named with the target of the run they are in. */
const target = new Map();
for (const line of lines) {
  const prefix = /^(\S+?):test:/.exec(line)?.[1] ?? '';
  const started = /contract tests against (\S+) at /.exec(line);
  if (started) target.set(prefix, started[1]);
  const file = /[✓❯×]\s+(\S+\.test\.ts)\s+\(\d+ tests?[^)]*\)\s+(\d+(?:\.\d+)?)(ms|s)\s*$/.exec(line);
  if (!file) continue;
  const ms = Number(file[2]) * (file[3] === 's' ? 1000 : 1);
  const where = target.has(prefix) ? `${prefix} (${target.get(prefix)})` : prefix;
  files.push({ name: `${where} ${file[1]}`, ms });
}
if (files.length) {
  console.log('\nThe ten slowest test files of this run:');
  for (const { name, ms } of files.sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
}
process.exit(status);
