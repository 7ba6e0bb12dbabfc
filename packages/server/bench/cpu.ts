/**
 * CPU time of processes during a bench row, from /proc (Linux): whether a target is bound by its
 * own process, by PostgreSQL, by the load generator, or by the machine's cores.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/**
 * CPU seconds (user + system) that a process and its descendants use from now until the returned
 * function is called. A process started meanwhile counts from its start (PostgreSQL starts a
 * backend per connection); one that ended meanwhile is not counted.
 */
export function cpuMeter(root: number): () => number {
  const start = new Map(processTree(root).map((pid) => [pid, cpuSeconds(pid)]));
  return () => processTree(root).reduce((sum, pid) => sum + cpuSeconds(pid) - (start.get(pid) ?? 0), 0);
}

function processTree(pid: number): number[] {
  const children = read(`/proc/${pid}/task/${pid}/children`)?.trim().split(/\s+/).filter(Boolean).map(Number) ?? [];
  return [pid, ...children.flatMap(processTree)];
}

function cpuSeconds(pid: number): number {
  const fields = statFields(read(`/proc/${pid}/stat`));
  return fields ? (Number(fields[11]) + Number(fields[12])) / ticksPerSecond : 0;
}

/** CPU seconds of this process's children that ended and were waited for (the load generator's runs). */
export function reapedChildrenCpuSeconds(): number {
  const fields = statFields(read('/proc/self/stat'))!;
  return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
}

/** CPU seconds the whole machine spent busy and in all, over every core. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const [, ...times] = read('/proc/stat')!.split('\n')[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const ticks = times.slice(0, 8).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = ticks[3]! + ticks[4]!;
  return { busy: (total - idle) / ticksPerSecond, total: total / ticksPerSecond };
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): index 0 is the state. */
function statFields(stat: string | undefined): string[] | undefined {
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
