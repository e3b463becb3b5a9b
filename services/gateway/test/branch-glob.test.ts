import { describe, expect, it } from '@jest/globals';
import { branchMatches } from '../src/ci-summary/budget-alerts.js';
import { globMatches, type GlobWork } from '../src/ci-summary/branch-glob.js';

/**
 * The textbook dynamic programme over (pattern prefix, text prefix): obviously right and slow,
 * the reference the fast matcher must agree with.
 */
function reference(pattern: string, text: string): boolean {
  const p = [...pattern];
  const t = [...text];
  let row = [true, ...t.map(() => false)];
  for (const c of p) {
    const next = [c === '*' && row[0]!];
    for (let j = 1; j <= t.length; j++) {
      next[j] = c === '*' ? row[j]! || next[j - 1]! : row[j - 1]! && (c === '?' || c === t[j - 1]);
    }
    row = next;
  }
  return row[t.length]!;
}

/** Every string of length 0..maxLength over the alphabet. */
function strings(alphabet: string[], maxLength: number): string[] {
  const all: string[] = [];
  let level = [''];
  for (let length = 0; length <= maxLength; length++) {
    all.push(...level);
    level = level.flatMap((s) => alphabet.map((c) => s + c));
  }
  return all;
}

describe('branch glob matching', () => {
  it('agrees with the reference on every pattern and branch up to 5 and 6 characters', () => {
    const patterns = strings(['a', 'b', '*', '?'], 5);
    const branches = strings(['a', 'b', '😀'], 6);
    let disagreements = 0;
    for (const pattern of patterns) {
      for (const branch of branches) {
        if (globMatches(pattern, branch) !== reference(pattern, branch)) disagreements++;
      }
    }
    expect(patterns.length * branches.length).toBeGreaterThan(1_000_000);
    expect(disagreements).toBe(0);
  });

  it('matches the patterns budgets use', () => {
    expect(branchMatches('release/*', 'release/1.2')).toBe(true);
    expect(branchMatches('release/*', 'main')).toBe(false);
    expect(branchMatches('feature/??-*', 'feature/ab-x/y')).toBe(true);
    expect(branchMatches('**main**', 'main')).toBe(true);
    expect(branchMatches('a.b', 'axb')).toBe(false);
    expect(branchMatches('(x)+[y]', '(x)+[y]')).toBe(true);
    expect(branchMatches(null, 'any')).toBe(true);
    expect(branchMatches('*', null)).toBe(false);
  });

  it('does at most pattern × branch comparisons on inputs that make backtracking explode', () => {
    // As a backtracking regex, the first took 26 s on a 500-character branch; each more star
    // multiplies that by the branch length.
    const cases: [string, string][] = [
      ['*a*a*a*b', 'a'.repeat(500)],
      ['*a*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(500)],
      [`${'*a'.repeat(99)}*b`, 'a'.repeat(500)],
      [`${'*?'.repeat(99)}*b`, `${'x'.repeat(499)}c`],
      ['*'.repeat(200), 'a'.repeat(500)],
    ];
    for (const [pattern, branch] of cases) {
      const work: GlobWork = { comparisons: 0 };
      expect(globMatches(pattern, branch, work)).toBe(reference(pattern, branch));
      expect(work.comparisons).toBeLessThanOrEqual(pattern.length * branch.length);
    }
    // The budget path itself finishes the worst case the review found, scaled up.
    expect(branchMatches('*a*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(500))).toBe(false);
  });
});
