/**
 * The server's time. In the sandbox it can be moved forward (POST /sandbox/advance), which expires
 * quotes and lets simulated confirmations arrive without waiting.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
