// `npm test`: Biome on the code, then every package's build, lint, type check and tests, their output
// shown as it comes; at the end, the tasks and the ten test files of the run that took longest (vitest's
// per-file times), so that whoever makes the loop slower sees where. Exits with the run's status.
//
// The builds run first, as one `turbo run build`: the same command, hashes and cache as the set-up's
// `pnpm build`, so that after it they are all cache hits. The other tasks are turbo's too (`turbo run
// lint typecheck test`: the same graph), each run by a turbo of its own with `--only`, but this script
// picks which ready task starts next: turbo starts ready tasks in no particular order, and on CI's two
// cores a long test suite started last ends the run minutes after everything else. Here the task with
// the longest chain of work still behind it (its own expected time and its dependents') goes first, so
// the long suites start early and the short tasks fill the gaps.
import { execFileSync, spawn } from 'node:child_process';

/** Tasks at once: CI's two cores, as `turbo --concurrency=2` was. */
const slots = 2;

/**
 * Seconds each task takes: the ten longest from `npm test` on a 2-core machine that other work kept
 * busy (November 2026, about 1.6 times CI's figures), the shorter ones CI's earlier figures times
 * 1.6. Only their order and rough size matter, to start the long chains first. A task not listed
 * counts as short; the list of tasks by time printed at the end of a run is what to update it from.
 */
const expectedSeconds = {
  // Two thirds of the 530 it took before its tests shared stores (227 against 149 s alone, a quiet machine).
  '@swap-gateway/server#test': 350,
  '@swap-gateway/docs#test': 450,
  '@swap-gateway/contract-tests#test': 110,
  '@swap-gateway/client#test': 90,
  '@swap-gateway/mock#test': 70,
  '@swap-gateway/openapi#test': 60,
  '@swap-gateway/openapi#lint': 35,
  '@swap-gateway/spec-diff#test': 30,
  // TypeScript 7's tsc since ee4eb1c: 3.4 s alone (16 s with 5.9's).
  '//#typecheck': 8,
  '@swap-gateway/client#lint': 16,
};
const shortTaskSeconds = 5;

let output = '';
const show = (stream, text) => {
  stream.write(text);
  output += text;
};

/** Runs a command with its output shown as it comes; resolves with its exit status. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => show(process.stdout, chunk.toString()));
    child.stderr.on('data', (chunk) => show(process.stderr, chunk.toString()));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Runs one task through turbo, without its dependencies (they ran before it), and never from turbo's
 * cache: with `--only` a task's hash leaves out its dependencies', so a test of the docs would be
 * replayed as passed after a change to the server it runs. (A build with `--only` likewise missed the
 * set-up's cache every time, and ran again.) The task's own lines,
 * prefixed `<package>:<task>:`, are shown whole as they come (two tasks run at once); turbo's
 * banner and summary are left out, unless the task fails.
 */
function runTask(task) {
  return new Promise((resolve) => {
    const args = ['exec', 'turbo', 'run', task.task, `--filter=${task.package}`, '--only', '--force'];
    const child = spawn('pnpm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const turboLines = [];
    for (const [stream, target] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = '';
      stream.on('data', (chunk) => {
        const lines = (pending + chunk.toString()).split('\n');
        pending = lines.pop();
        for (const line of lines) {
          // biome-ignore lint/suspicious/noControlCharactersInRegex: the prefix may come in terminal colours.
          if (/^(\x1b\[[0-9;]*m)*\S+:\S+: /.test(line)) show(target, `${line}\n`);
          else turboLines.push(line);
        }
      });
      stream.on('end', () => pending && turboLines.push(pending));
    }
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (status !== 0) show(process.stderr, `${turboLines.join('\n')}\n`);
      resolve(status);
    });
  });
}

/** Every task after the builds and what it waits for, as turbo plans it; tasks without a script (and the builds, done) need no run. */
function plan() {
  const dryRun = execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', 'lint', 'typecheck', 'test', '--dry=json'], { encoding: 'utf8' });
  const { tasks } = JSON.parse(dryRun);
  return new Map(
    tasks.map((task) => [
      task.taskId,
      {
        id: task.taskId,
        package: task.package,
        task: task.task,
        runs: task.task !== 'build' && task.command !== '<NONEXISTENT>',
        dependencies: task.dependencies,
        dependents: task.dependents,
      },
    ]),
  );
}

/** Runs the tasks `slots` at a time (one more for the head of the longest chain), the ready one with the longest chain of work behind it first. */
async function runTasks(tasks) {
  const remaining = new Map();
  const chain = (task) => {
    if (!remaining.has(task.id)) {
      const own = task.runs ? (expectedSeconds[task.id] ?? shortTaskSeconds) : 0;
      remaining.set(task.id, own + Math.max(0, ...task.dependents.map((id) => chain(tasks.get(id)))));
    }
    return remaining.get(task.id);
  };
  const runStarted = Date.now();
  const waiting = new Set(tasks.keys());
  // The task with the longest chain of every task left or running takes a slot more: a short task
  // that took the last slot while that chain's build was still running would hold the whole run back
  // (the docs tests once started 40 s late behind the mock's).
  const running = new Set();
  const heads = (task) => [...waiting, ...running].every((id) => chain(tasks.get(id)) <= chain(task));
  const done = new Set();
  const took = [];
  const failed = [];
  return new Promise((resolve) => {
    const next = () => {
      for (;;) {
        const ready = [...waiting].map((id) => tasks.get(id)).filter((task) => task.dependencies.every((id) => done.has(id)));
        const task = ready.find((candidate) => !candidate.runs) ?? ready.sort((a, b) => chain(b) - chain(a))[0];
        if (!task || failed.length > 0 || (task.runs && running.size >= slots && !(running.size === slots && heads(task)))) break;
        waiting.delete(task.id);
        if (!task.runs) {
          done.add(task.id);
          continue;
        }
        running.add(task.id);
        const started = Date.now();
        runTask(task).then((status) => {
          running.delete(task.id);
          took.push({ id: task.id, ms: Date.now() - started, from: started - runStarted });
          if (status === 0) done.add(task.id);
          else failed.push(task.id);
          next();
        });
      }
      if (running.size === 0) resolve({ took, failed });
    };
    next();
  });
}

let status = await run('pnpm', ['lint:code']);
let buildSeconds = 0;
if (status === 0) {
  const started = Date.now();
  status = await run('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=new-only']);
  buildSeconds = (Date.now() - started) / 1000;
}
if (status === 0) {
  const started = Date.now();
  const { took, failed } = await runTasks(plan());
  status = failed.length > 0 ? 1 : 0;
  console.log(
    `\nThe builds in ${buildSeconds.toFixed(0)} s, then ${took.length} tasks in ${((Date.now() - started) / 1000).toFixed(0)} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
  );
  // When each started, too: a long task that started late is where the order went wrong.
  console.log('The tasks of this run that took longest:');
  for (const { id, ms, from } of took.sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${id} (from +${(from / 1000).toFixed(0)} s)`);
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
