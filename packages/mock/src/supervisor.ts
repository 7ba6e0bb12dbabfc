/**
 * Keeps one Prism process running behind the front. Prism dies on a request its router throws on
 * (the front refuses the ones known to do that); should it die anyway, the next requests wait for a
 * fresh Prism instead of failing from then on. If Prism keeps dying (`maxRestarts` times within a
 * minute), the supervisor gives up and says so through `failed`, so that its owner sees it.
 */
import type { PrismProcess } from './prism.js';

export interface PrismSupervisor {
  /** The address of the running Prism; waits while it restarts, rejects once the supervisor gave up. */
  current(): Promise<URL>;
  /** Process id of the running Prism. */
  pid(): number;
  /** Resolves with the reason when Prism cannot be kept running; never resolves otherwise. */
  failed: Promise<Error>;
  /** Ends Prism for good (no restart); resolves once the process has exited. */
  stop(): Promise<void>;
}

const restartWindowMs = 60_000;

export async function supervisePrism(
  start: () => Promise<PrismProcess>,
  maxRestarts: number,
  log?: (line: string) => void,
): Promise<PrismSupervisor> {
  let running = await start();
  let ready: Promise<PrismProcess> = Promise.resolve(running);
  let stopped = false;
  let restarts: number[] = [];
  let reportFailure!: (error: Error) => void;
  const failed = new Promise<Error>((resolve) => (reportFailure = resolve));

  const giveUp = (error: Error) => {
    ready = Promise.reject(error);
    ready.catch(() => undefined);
    reportFailure(error);
  };
  const watch = (prism: PrismProcess) => {
    void prism.exited.then((how) => {
      if (stopped) return;
      const now = Date.now();
      restarts = restarts.filter((at) => now - at < restartWindowMs);
      if (restarts.length >= maxRestarts) {
        giveUp(new Error(`Prism exited (${how}) and was already restarted ${restarts.length} time(s) within a minute; the mock gives up`));
        return;
      }
      restarts.push(now);
      log?.(`Prism exited (${how}); restarting it`);
      ready = start().then((next) => {
        running = next;
        watch(next);
        return next;
      });
      ready.catch((error: unknown) => giveUp(new Error(`Prism exited (${how}) and could not be restarted: ${String(error)}`)));
    });
  };
  watch(running);

  return {
    current: async () => new URL((await ready).url),
    pid: () => running.pid,
    failed,
    stop: async () => {
      stopped = true;
      await ready.then(
        (prism) => prism.stop(),
        () => undefined,
      );
    },
  };
}
