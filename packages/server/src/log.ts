/**
 * The server's log: pino, one JSON line an event, to stdout or the given stream. The application
 * logs through it directly, and Fastify runs without a logger of its own: with one, Fastify times
 * every response and listens for its end whatever the level, so the access log cost every request
 * even when it was not written. The access line is written by an onResponse hook (app.ts), added
 * only when `info` is on.
 */
import { type DestinationStream, type Logger, pino } from 'pino';

export type Log = Logger;

/** The level (default `info`) and where the lines go (default stdout); true: those defaults; false: no log. */
export type LogOptions = boolean | { level?: string; stream?: DestinationStream };

export function createLog(options: LogOptions | undefined): Log {
  if (!options) return pino({ enabled: false });
  const { level = 'info', stream } = options === true ? {} : options;
  return stream ? pino({ level }, stream) : pino({ level });
}
