/**
 * Opaque page cursors for get-orders: base64url of `{ a, s }` (the listed address and the sequence
 * number of the last order on the page) and an HMAC of it. The sequence number grows with every
 * insert, so orders created while a client pages through never shift the pages it has not read yet.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors.js';

export class CursorCodec {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('orders-cursor').digest();
  }

  encode(address: string, lastSeq: string): string {
    const payload = Buffer.from(JSON.stringify({ a: address, s: lastSeq })).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The sequence number to continue after; INVALID_CURSOR for anything this service did not issue for this address. */
  decode(cursor: string, address: string): string {
    const [payload, mac, ...rest] = cursor.split('.');
    const refuse = () => new DomainError('INVALID_CURSOR', 'cursor was not issued by this service', null);
    if (!payload || !mac || rest.length) throw refuse();
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { a?: unknown; s?: unknown };
    if (decoded.a !== address || typeof decoded.s !== 'string' || !/^\d+$/.test(decoded.s)) {
      throw new DomainError('INVALID_CURSOR', 'cursor belongs to another address', null);
    }
    return decoded.s;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }
}
