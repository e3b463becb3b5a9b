import { describe, expect, it } from '@jest/globals';
import { findJump, largestChange, type Footprint } from '../src/onboard/bisect.js';

/** A probe over fixed footprints that counts what it was asked for. */
function history(footprints: Footprint[]) {
  const asked: number[] = [];
  return {
    asked,
    probe: (i: number) => {
      asked.push(i);
      return Promise.resolve(footprints[i]!);
    },
  };
}

describe('binary search for a region jump', () => {
  it('finds a single jump probing at most log2(n) + 2 commits', async () => {
    for (const at of [1, 2, 500, 998, 999]) {
      const h = history(
        Array.from({ length: 1000 }, (_, i) => ({ FLASH: i < at ? 1000 : 3048, RAM: 10 })),
      );
      expect(await findJump(1000, h.probe)).toEqual({
        region: 'FLASH',
        before: at - 1,
        at,
        change: 2048,
      });
      expect(h.asked.length).toBeLessThanOrEqual(Math.ceil(Math.log2(1000)) + 2);
    }
  });

  it('follows the larger half when a region changes several times', async () => {
    const sizes = [100, 100, 110, 110, 110, 900, 900, 910];
    const h = history(sizes.map((FLASH) => ({ FLASH })));
    expect(await findJump(sizes.length, h.probe)).toEqual({
      region: 'FLASH',
      before: 4,
      at: 5,
      change: 790,
    });
  });

  it('passes over commits that did not build, and needs both ends to build', async () => {
    const h = history([{ RAM: 1 }, null, null, { RAM: 9 }, { RAM: 9 }]);
    expect(await findJump(5, h.probe)).toEqual({ region: 'RAM', before: 0, at: 3, change: 8 });
    expect(await findJump(2, history([null, { RAM: 1 }]).probe)).toEqual({ unbuildable: 0 });
  });

  it('says when nothing changed, also for a named region', async () => {
    expect(await findJump(3, history([{ A: 1 }, { A: 1 }, { A: 1 }]).probe)).toEqual({
      unchanged: true,
    });
    expect(
      await findJump(
        3,
        history([
          { A: 1, B: 1 },
          { A: 1, B: 2 },
          { A: 1, B: 3 },
        ]).probe,
        'A',
      ),
    ).toEqual({ unchanged: true });
    expect(largestChange({ A: 1, B: 5 }, { A: 9, B: 5, C: 2 })).toBe('A');
  });
});
