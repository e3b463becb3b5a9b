/**
 * The four screenshots of the home carousel (spec §2): src, title, description. The images are
 * captured from the demo firmware by `npm run screenshots -w @memtrail/web`.
 */
export interface Slide {
  src: string;
  title: string;
  description: string;
}

/** Pixel size of every captured screenshot (5:3). */
export const SCREENSHOT_SIZE = { width: 1920, height: 1152 } as const;

export const SLIDES: Slide[] = [
  {
    src: '/screenshots/time-series.webp',
    title: 'Time Series Analysis',
    description:
      'Follow FLASH and RAM usage of every region across hundreds of commits and spot the build where the footprint jumped.',
  },
  {
    src: '/screenshots/commit-history.webp',
    title: 'Commit History',
    description:
      'Every commit with its memory delta next to the message and author, so a regression points straight at its cause.',
  },
  {
    src: '/screenshots/build-comparison.webp',
    title: 'Build Comparison',
    description:
      'Pick any two builds and see which sections and symbols grew, shrank, appeared or disappeared.',
  },
  {
    src: '/screenshots/symbol-analysis.webp',
    title: 'Symbol Analysis',
    description:
      'Rank symbols by size, filter by section or name, and track one function or buffer through history.',
  },
];

/** Next index with wrap-around in both directions. */
export const wrapIndex = (index: number, count: number) => ((index % count) + count) % count;
