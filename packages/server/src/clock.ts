/**
 * The server's time. In the sandbox it can be moved forward (POST /sandbox/advance), which expires
 * quotes and lets simulated confirmations arrive without waiting: the offset is the sandbox's, kept
 * in its state (sandbox/state.ts) so that every process of a deployment keeps the same time.
 */
export class Clock {
  constructor(private readonly offsetMs: () => number = () => 0) {}

  now(): number {
    return Date.now() + this.offsetMs();
  }
}
