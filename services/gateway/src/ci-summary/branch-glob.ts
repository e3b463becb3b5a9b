/** Counts the character comparisons of a match, so tests can bound the work it does. */
export interface GlobWork {
  comparisons: number;
}

/** Whether `segment` (literal characters and `?`) matches `text` starting at `at`. */
function segmentAt(segment: string[], text: string[], at: number, work?: GlobWork): boolean {
  for (let i = 0; i < segment.length; i++) {
    if (work) work.comparisons++;
    if (segment[i] !== '?' && segment[i] !== text[at + i]) return false;
  }
  return true;
}

/**
 * Glob match of branch names: `*` any run of characters (`/` included), `?` one character,
 * everything else itself. Repeated `*` count as one.
 *
 * Not a regular expression: user patterns turned into backtracking regexes take exponential
 * time (`*a*a*a*b` against a long branch blocked the event loop for seconds). Here the text
 * between stars is matched at its leftmost place, in order, which is exact for globs and costs
 * at most (pattern length × text length) comparisons, never more.
 */
export function globMatches(pattern: string, text: string, work?: GlobWork): boolean {
  const chars = [...text];
  const segments = pattern.split('*').map((segment) => [...segment]);
  const first = segments[0]!;
  if (segments.length === 1) {
    return first.length === chars.length && segmentAt(first, chars, 0, work);
  }
  const last = segments[segments.length - 1]!;
  const end = chars.length - last.length;
  if (first.length > end) return false;
  if (!segmentAt(first, chars, 0, work) || !segmentAt(last, chars, end, work)) return false;
  let position = first.length;
  for (const segment of segments.slice(1, -1)) {
    let found = -1;
    for (let at = position; at + segment.length <= end && found < 0; at++) {
      if (segmentAt(segment, chars, at, work)) found = at;
    }
    if (found < 0) return false;
    position = found + segment.length;
  }
  return true;
}
