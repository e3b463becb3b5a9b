import { ServiceUnavailableException } from '../http/retry-later.js';
import { TooManyRequestsException } from '../rate-limit/rate-limit.service.js';

export interface AdmissionLimits {
  /** Uploads one gateway process reads, decodes and stores at once. */
  maxUploads: number;
  /** Request bytes those uploads may hold together. */
  maxBytes: number;
}

/** What a refused client is asked to wait: uploads in flight finish within seconds. */
export const BUSY_RETRY_AFTER_S = 5;

interface Usage {
  uploads: number;
  bytes: number;
}

/** An admitted upload's share of the budget, until it is released (once, when answered). */
export interface AdmissionTicket {
  /** The upload now holds `bytes` request bytes; throws 429/503 when that exceeds the budget. */
  hold(bytes: number): void;
  release(): void;
}

/**
 * Bounds what uploads in flight cost one gateway process: at most `maxUploads` of them holding at
 * most `maxBytes` of request bodies, of which one uploader (an API key, a project's OIDC
 * uploads, a tokenless client's address) may take half. Beyond that a client is
 * told to come back (503 when the process is full, 429 when its key has its share), which both
 * CLIs do, instead of the process queueing bodies until it runs out of memory.
 */
export class UploadAdmission {
  private readonly total: Usage = { uploads: 0, bytes: 0 };
  private readonly byKey = new Map<string, Usage>();
  private readonly perKey: AdmissionLimits;

  constructor(private readonly limits: AdmissionLimits) {
    this.perKey = {
      maxUploads: Math.ceil(limits.maxUploads / 2),
      maxBytes: Math.ceil(limits.maxBytes / 2),
    };
  }

  /** Current use, for metrics and tests. */
  get usage(): Readonly<Usage> {
    return { ...this.total };
  }

  /** Admits an upload of `key` (its uploader) declaring `bytes` (0: unknown), or throws 429/503. */
  admit(key: string, bytes: number): AdmissionTicket {
    const mine = this.byKey.get(key) ?? { uploads: 0, bytes: 0 };
    this.check(mine, 1, bytes);
    this.byKey.set(key, mine);
    this.add(mine, 1, bytes);
    let held = bytes;
    let released = false;
    return {
      hold: (bytes: number) => {
        if (released || bytes <= held) return;
        this.check(mine, 0, bytes - held);
        this.add(mine, 0, bytes - held);
        held = bytes;
      },
      release: () => {
        if (released) return;
        released = true;
        this.add(mine, -1, -held);
        if (mine.uploads === 0) this.byKey.delete(key);
      },
    };
  }

  private check(mine: Usage, uploads: number, bytes: number): void {
    if (
      mine.uploads + uploads > this.perKey.maxUploads ||
      mine.bytes + bytes > this.perKey.maxBytes
    ) {
      throw new TooManyRequestsException(
        BUSY_RETRY_AFTER_S,
        `This uploader has ${mine.uploads} uploads in flight on this server, its share of ` +
          `${this.perKey.maxUploads} uploads or ${this.perKey.maxBytes} bytes; retry after ${BUSY_RETRY_AFTER_S} s`,
      );
    }
    if (
      this.total.uploads + uploads > this.limits.maxUploads ||
      this.total.bytes + bytes > this.limits.maxBytes
    ) {
      throw new ServiceUnavailableException(
        BUSY_RETRY_AFTER_S,
        `The server is busy with ${this.total.uploads} other uploads; retry after ${BUSY_RETRY_AFTER_S} s`,
      );
    }
  }

  private add(mine: Usage, uploads: number, bytes: number): void {
    mine.uploads += uploads;
    mine.bytes += bytes;
    this.total.uploads += uploads;
    this.total.bytes += bytes;
  }
}
