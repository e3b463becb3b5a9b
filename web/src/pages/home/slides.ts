/** The four screenshots of the home carousel (spec §2): src, title, description. */
export interface Slide {
  src: string;
  title: string;
  description: string;
}

export const SLIDES: Slide[] = [
  {
    src: '/screenshots/time-series.svg',
    title: 'Time Series Analysis',
    description:
      'Follow FLASH and RAM usage of every region across hundreds of commits and spot the build where the footprint jumped.',
  },
  {
    src: '/screenshots/commit-history.svg',
    title: 'Commit History',
    description:
      'Every commit with its memory delta next to the message and author, so a regression points straight at its cause.',
  },
  {
    src: '/screenshots/build-comparison.svg',
    title: 'Build Comparison',
    description:
      'Pick any two builds and see which sections and symbols grew, shrank, appeared or disappeared.',
  },
  {
    src: '/screenshots/symbol-analysis.svg',
    title: 'Symbol Analysis',
    description:
      'Rank symbols by size, filter by section or name, and track one function or buffer through history.',
  },
];

/** Next index with wrap-around in both directions. */
export const wrapIndex = (index: number, count: number) => ((index % count) + count) % count;
