/**
 * Groups work items that jobs running at the same time submit, so they are written together.
 *
 * Jobs announce themselves when they start (`enter`) and either submit an item or leave. A
 * group is written when it reaches `maxSize`; otherwise once no announced job is still
 * preparing an item and either `lingerMs` have passed since its first item or no other job can
 * arrive (every one of `capacity` jobs is waiting here or on a write); and at the latest
 * `maxWaitMs` (or `lingerMs`, if longer) after its first item. A busy worker writes few, large
 * groups without waiting; one that receives jobs one at a time gathers them for `lingerMs`.
 */
export interface BatcherOptions<T, R> {
  /** Writes one group; returns one result per item, in order. */
  write(items: T[]): Promise<R[]>;
  /** An item's share of a group's size (rows, for example). */
  sizeOf(item: T): number;
  /** A group is written once it reaches this size; an item that would pass it starts a new one. */
  maxSize: number;
  /** The longest a group waits for jobs still preparing an item. */
  maxWaitMs: number;
  /** How long a group waits for more jobs to arrive; 0 writes it once no job is preparing. */
  lingerMs?: number;
  /** Jobs that can run at once: once all are waiting here, lingering cannot gather more. */
  capacity?: number;
}

/** One job's place in the batcher; `submit` or `leave` ends it, whichever comes first. */
export interface BatchTicket<T, R> {
  submit(item: T): Promise<R>;
  leave(): void;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class Batcher<T, R> {
  private preparing = 0;
  private group: Waiting<T, R>[] = [];
  private groupSize = 0;
  private timer: NodeJS.Timeout | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;
  /** The current group has waited `lingerMs`. */
  private lingered = false;
  /** Items of groups being written. */
  private writing = 0;

  constructor(private readonly options: BatcherOptions<T, R>) {}

  enter(): BatchTicket<T, R> {
    this.preparing++;
    let open = true;
    const close = () => {
      if (!open) return false;
      open = false;
      this.preparing--;
      return true;
    };
    return {
      submit: (item) => {
        if (!close()) return Promise.reject(new Error('this batch ticket was already used'));
        return this.add(item);
      },
      leave: () => {
        if (close()) this.flushIfIdle();
      },
    };
  }

  private add(item: T): Promise<R> {
    const size = this.options.sizeOf(item);
    if (this.group.length > 0 && this.groupSize + size > this.options.maxSize) this.flush();
    const result = new Promise<R>((resolve, reject) => this.group.push({ item, resolve, reject }));
    this.groupSize += size;
    if (this.group.length === 1) this.startWaiting();
    if (this.groupSize >= this.options.maxSize) this.flush();
    else this.flushIfIdle();
    return result;
  }

  private startWaiting(): void {
    const lingerMs = this.options.lingerMs ?? 0;
    this.lingered = lingerMs === 0;
    if (!this.lingered) {
      this.lingerTimer = setTimeout(() => {
        this.lingered = true;
        this.flushIfIdle();
      }, lingerMs);
    }
    this.timer = setTimeout(() => this.flush(), Math.max(this.options.maxWaitMs, lingerMs));
  }

  private flushIfIdle(): void {
    if (this.preparing > 0) return;
    const full = this.group.length + this.writing >= (this.options.capacity ?? Infinity);
    if (this.lingered || full) this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    clearTimeout(this.lingerTimer);
    this.timer = undefined;
    this.lingerTimer = undefined;
    const group = this.group;
    if (group.length === 0) return;
    this.group = [];
    this.groupSize = 0;
    this.writing += group.length;
    this.options
      .write(group.map((w) => w.item))
      .finally(() => (this.writing -= group.length))
      .then(
        (results) => group.forEach((w, i) => w.resolve(results[i]!)),
        (error: unknown) => group.forEach((w) => w.reject(error)),
      );
  }
}
