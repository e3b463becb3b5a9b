import { RuntimeError } from '../context.js';
import { RestError } from './rest.js';

export interface Comment {
  id: number;
  body: string;
}

/** The comments of one pull/merge request, as a code host's API offers them. */
export interface CommentThread {
  /** Every comment on the request, in any order. */
  list(): Promise<Comment[]>;
  create(body: string): Promise<Comment>;
  /** Rejects with a RestError 404 when the comment is gone. */
  update(id: number, body: string): Promise<void>;
  /** Resolves also when the comment is already gone. */
  remove(id: number): Promise<void>;
}

export type StickyOutcome =
  | { action: 'created' | 'updated' | 'unchanged'; id: number }
  | { action: 'skipped'; reason: string };

export interface StickyOptions {
  marker: string;
  /** The body as it should read now (fresh from the server), or a reason to leave it alone. */
  render(): Promise<{ body: string } | { skip: string }>;
  maxRounds?: number;
  log(line: string): void;
}

const normalise = (body: string) => body.replace(/\r\n/g, '\n').trim();

function isGone(error: unknown): boolean {
  return error instanceof RestError && error.status === 404;
}

/**
 * Keeps exactly one comment carrying the marker, whose body is the current rendering.
 *
 * Code hosts offer no compare-and-swap on comments, so several jobs of one pull request (one per
 * target, finishing together) may each find no comment and create one, or overwrite each other's
 * newer text with an older summary. Every job therefore loops until it observes a settled thread:
 * it re-renders from the server (whose summary only grows as targets upload), keeps the oldest
 * marker comment (all jobs agree on which, by id), deletes the others, writes when the kept body
 * differs, and returns only after a round in which it changed nothing. The last job to write is
 * thus always followed by its own check of the final state, so the thread settles on one comment
 * with the latest summary, whatever the interleaving.
 */
export async function keepSticky(
  thread: CommentThread,
  options: StickyOptions,
): Promise<StickyOutcome> {
  const maxRounds = options.maxRounds ?? 8;
  let createdId: number | undefined;
  let wrote = false;
  for (let round = 1; round <= maxRounds; round++) {
    const rendered = await options.render();
    if ('skip' in rendered) return { action: 'skipped', reason: rendered.skip };
    const body = rendered.body;
    const ours = (await thread.list())
      .filter((c) => c.body.includes(options.marker))
      .sort((a, b) => a.id - b.id);
    const [keep, ...duplicates] = ours;
    for (const duplicate of duplicates) {
      options.log(`removing duplicate comment ${duplicate.id} (keeping ${keep!.id})`);
      await thread.remove(duplicate.id);
    }
    if (!keep) {
      createdId = (await thread.create(body)).id;
      options.log(`created comment ${createdId}`);
      continue;
    }
    if (normalise(keep.body) !== normalise(body)) {
      try {
        await thread.update(keep.id, body);
        wrote = true;
        options.log(`updated comment ${keep.id}`);
      } catch (error) {
        // Deleted meanwhile as another job's duplicate: the next round finds the survivor.
        if (!isGone(error)) throw error;
      }
      continue;
    }
    if (duplicates.length > 0) continue;
    const action = keep.id === createdId ? 'created' : wrote ? 'updated' : 'unchanged';
    return { action, id: keep.id };
  }
  throw new RuntimeError(
    `the comment did not settle after ${maxRounds} rounds (other jobs kept changing it); run again`,
  );
}
