import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How old (or how far ahead, for clocks apart) a signature may be. */
export const SIGNATURE_WINDOW_MS = 60_000;

function mac(secret: string, ts: number, nonce: string, pattern: unknown, data: unknown): string {
  return createHmac('sha256', secret)
    .update(`${ts}\n${nonce}\n${JSON.stringify(pattern)}\n${JSON.stringify(data ?? null)}`)
    .digest('hex');
}

/**
 * Signs one message to the query service: `<ms since epoch>.<random nonce>.<HMAC-SHA256 of
 * both, the pattern and the data>`, a string as packet metadata requires. The nonce keeps two
 * identical messages from sharing a signature.
 */
export function signMessage(
  secret: string,
  pattern: unknown,
  data: unknown,
  now = Date.now(),
): string {
  const nonce = randomBytes(16).toString('hex');
  return `${now}.${nonce}.${mac(secret, now, nonce, pattern, data)}`;
}

/**
 * Checks signatures with the shared secret: the MAC must match the message, be recent, and not
 * have been seen before within the window, so a message captured on the network cannot be
 * replayed to this process.
 */
export class MessageVerifier {
  /** Signatures accepted within the window, with their time. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly secret: string,
    private readonly windowMs = SIGNATURE_WINDOW_MS,
  ) {}

  /** Why the message is refused, or null when it is authentic. */
  problem(pattern: unknown, data: unknown, signature: unknown, now = Date.now()): string | null {
    const [ts, nonce, given] = typeof signature === 'string' ? signature.split('.') : [];
    if (!ts || !nonce || !given) return 'the message is not signed';
    if (!(Math.abs(now - Number(ts)) <= this.windowMs)) return 'the signature is too old';
    const expected = Buffer.from(mac(this.secret, Number(ts), nonce, pattern, data), 'hex');
    const actual = Buffer.from(given, 'hex');
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
      return 'the signature does not match (is QUERY_SECRET the same on both sides?)';
    this.forgetBefore(now - this.windowMs);
    if (this.seen.has(given)) return 'the message was already received (a replay)';
    this.seen.set(given, Number(ts));
    return null;
  }

  private forgetBefore(cutoff: number): void {
    // Insertion order is arrival order, nearly time order: stop at the first recent entry.
    for (const [key, ts] of this.seen) {
      if (ts >= cutoff) break;
      this.seen.delete(key);
    }
  }
}
