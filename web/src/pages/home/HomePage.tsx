import { Link } from 'react-router';
import { Footer } from '../../components/Footer.tsx';
import { ScreenshotCarousel } from './ScreenshotCarousel.tsx';

const PROBLEMS = [
  {
    title: 'Silent growth',
    text: 'A few hundred bytes per merge add up. Nobody notices until the linker fails on the release branch.',
  },
  {
    title: 'No history',
    text: 'A one-off size report tells you where you are, not which commit got you there or why.',
  },
  {
    title: 'Manual digging',
    text: 'Diffing map files and nm output by hand takes hours and is never done on every pull request.',
  },
];

const SOLUTIONS = [
  {
    title: 'A report for every build',
    text: 'Your CI turns the ELF and its GNU linker scripts into a memory report: regions, sections and every symbol.',
  },
  {
    title: 'History you can read',
    text: 'Reports line up by commit and branch, so each change in footprint sits next to the commit that caused it.',
  },
  {
    title: 'Answers on the pull request',
    text: 'Compare the branch with its base before merging and see exactly which symbols grew.',
  },
];

const STEPS = [
  {
    title: 'Create a project',
    text: 'Sign up, create a project and copy its API key. It is shown once.',
  },
  {
    title: 'Add the key to CI',
    text: 'Store the key as a repository secret, next to your existing firmware build.',
  },
  {
    title: 'Upload reports',
    text: 'Run the open-source CLI or GitHub Action after each build; onboard the last 50 commits in one go.',
  },
  {
    title: 'Analyze',
    text: 'Browse time series, compare builds, track symbols and catch regressions on every pull request.',
  },
];

const FEATURES = [
  { title: 'Time series charts', text: 'Usage of every memory region across commits.' },
  {
    title: 'Commit history correlation',
    text: 'Each footprint change tied to its commit, author and message.',
  },
  { title: 'Compare any two builds', text: 'Section and symbol level diffs between any builds.' },
  { title: 'Symbol analysis', text: 'Find the largest symbols and follow one through history.' },
  {
    title: 'Memory layout visualization',
    text: 'Regions and sections as your linker script lays them out.',
  },
  { title: 'Multi-project support', text: 'Many projects, each with many targets and branches.' },
  { title: 'Secure API keys', text: 'One key per project, shown once, regenerate at any time.' },
  { title: 'Works with any CI system', text: 'GitHub Actions, GitLab CI, Jenkins or a laptop.' },
];

const FACTS = [
  'Builds run on your infrastructure; only memory reports are uploaded',
  'Any architecture with ELF files and GNU linker scripts',
  'Debug symbols recommended, test locally without uploading',
];

export function HomePage() {
  return (
    <div className="home">
      <section className="hero">
        <div className="hero__text">
          <p className="eyebrow">Firmware memory footprint tracking</p>
          <h1>Know where every byte of your firmware went</h1>
          <p className="hero__pitch">
            Memtrail records the FLASH and RAM usage of every build, commit by commit. Spot the
            change that pushed you over budget before it ships.
          </p>
          <div className="hero__actions">
            <Link to="/auth" className="button button--primary button--large">
              Start Free Today
            </Link>
            <Link to="/tutorial" className="button button--ghost button--large">
              Read the tutorial
            </Link>
          </div>
          <ul className="hero__facts">
            {FACTS.map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
          </ul>
        </div>
        <HeroGauge />
      </section>

      <section className="band" aria-labelledby="problem-heading">
        <div className="section">
          <p className="eyebrow">The problem</p>
          <h2 id="problem-heading">Memory creeps up one commit at a time</h2>
          <div className="cards cards--3">
            {PROBLEMS.map((item) => (
              <article key={item.title} className="card card--problem">
                <h3>{item.title}</h3>
                <p>{item.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="solution-heading">
        <p className="eyebrow">The solution</p>
        <h2 id="solution-heading">Automated memory analysis for every commit</h2>
        <div className="cards cards--3">
          {SOLUTIONS.map((item) => (
            <article key={item.title} className="card card--solution">
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section" aria-labelledby="screens-heading">
        <p className="eyebrow">See it</p>
        <h2 id="screens-heading">From a chart to the symbol behind it</h2>
        <ScreenshotCarousel />
      </section>

      <section className="band" aria-labelledby="how-heading">
        <div className="section">
          <p className="eyebrow">How it works</p>
          <h2 id="how-heading">Up and running in 4 steps</h2>
          <ol className="steps">
            {STEPS.map((step, i) => (
              <li key={step.title} className="step">
                <span className="step__number">{i + 1}</span>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="features-heading">
        <p className="eyebrow">Key features</p>
        <h2 id="features-heading">Everything you need to keep firmware lean</h2>
        <ul className="features">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="feature">
              <span className="feature__check" aria-hidden="true">
                ✓
              </span>
              <div>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <Footer />
    </div>
  );
}

/** A small memory-map illustration: two regions with their sections, as a build report shows them. */
function HeroGauge() {
  const regions = [
    {
      name: 'FLASH',
      size: '512 KB',
      used: 71,
      parts: [
        { name: '.text', pct: 58, tone: 'a' },
        { name: '.rodata', pct: 11, tone: 'b' },
        { name: '.data (load)', pct: 2, tone: 'c' },
      ],
    },
    {
      name: 'RAM',
      size: '128 KB',
      used: 86,
      parts: [
        { name: '.data', pct: 6, tone: 'c' },
        { name: '.bss', pct: 52, tone: 'd' },
        { name: 'heap + stack', pct: 28, tone: 'e' },
      ],
    },
  ];
  return (
    <div className="memory-card" aria-label="Example memory report">
      <div className="memory-card__head">
        <span className="memory-card__title">stm32f4-discovery</span>
        <span className="memory-card__sha">a1c9e07 · main</span>
      </div>
      {regions.map((region) => (
        <div key={region.name} className="memory-region">
          <div className="memory-region__label">
            <strong>{region.name}</strong>
            <span>
              {region.used}% of {region.size}
            </span>
          </div>
          <div className="memory-region__bar">
            {region.parts.map((part) => (
              <span
                key={part.name}
                className={`memory-region__part tone-${part.tone}`}
                style={{ width: `${part.pct}%` }}
                title={part.name}
              />
            ))}
          </div>
          <div className="memory-region__legend">
            {region.parts.map((part) => (
              <span key={part.name}>
                <i className={`tone-${part.tone}`} />
                {part.name}
              </span>
            ))}
          </div>
        </div>
      ))}
      <div className="memory-card__delta">
        <span className="delta delta--up">+1,248 B</span> RAM since last build ·{' '}
        <code>rx_buffer</code> grew
      </div>
    </div>
  );
}
