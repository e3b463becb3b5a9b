import { Link } from 'react-router';
import { CodeBlock } from '../components/CodeBlock.tsx';
import { Footer } from '../components/Footer.tsx';
import { ONBOARD_EXAMPLE_COMMITS, SUPPORT_EMAIL } from '../lib/product.ts';

const N = ONBOARD_EXAMPLE_COMMITS;

// The CLI talks to this very instance, whatever host serves the app.
const ONBOARD_CLI = `export MEMTRAIL_API_KEY=<your project API key>
npx memtrail onboard ${N} \\
  --build "make" \\
  --elf build/fw.elf \\
  --ld link.ld \\
  --target-name stm32 \\
  --api-url ${window.location.origin}`;

const ONBOARD_ACTION = `# .github/workflows/memtrail-onboard.yml
name: Memtrail onboarding
on: workflow_dispatch

jobs:
  onboard:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # the whole history, so past commits can be rebuilt
      - uses: your-org/memtrail@v1
        with:
          num_commits: ${N}
          build_script: make
          elf: build/fw.elf
          ld: link.ld
          target_name: stm32
          api_url: ${window.location.origin}
          api_key: \${{ secrets.MEMTRAIL_API_KEY }}`;

const PR_ACTION = `# .github/workflows/memtrail.yml
name: Memtrail
on:
  push:
    branches: [main]
  pull_request:

jobs:
  memory-report:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make
      - uses: your-org/memtrail@v1
        with:
          elf: build/fw.elf
          ld: link.ld
          target_name: stm32
          api_url: ${window.location.origin}
          api_key: \${{ secrets.MEMTRAIL_API_KEY }}`;

const REPORT_CLI = `npx memtrail report build/fw.elf link.ld --upload --target-name stm32 \\
  --api-url ${window.location.origin}`;
const LOCAL_CLI = `npx memtrail report build/fw.elf link.ld`;

const INPUTS = [
  ['num_commits', `How many commits back from HEAD to build and upload (example: ${N}).`],
  ['build_script', 'The command that builds your firmware, run at each commit (e.g. make).'],
  ['elf', 'Path of the ELF file the build produces.'],
  ['ld', 'Your GNU linker scripts, separated by spaces.'],
  ['target_name', 'Name of the build configuration, e.g. the board (stm32, esp32-c3).'],
  ['api_key', 'The project API key, read from the repository secret.'],
];

const FAQ = [
  {
    q: 'Does my source code or binary leave my infrastructure?',
    a: 'No. Builds and the analysis run in your CI or on your machine; only the memory report (regions, sections and symbols) is uploaded.',
  },
  {
    q: 'Which architectures are supported?',
    a: 'Any architecture whose toolchain produces ELF files with GNU linker scripts: Arm Cortex-M, RISC-V, Xtensa and more.',
  },
  {
    q: 'Do I need debug symbols?',
    a: 'They are recommended: with DWARF information symbols get their source files and lines. Without them you still get sections and symbol sizes.',
  },
  {
    q: 'Can I try it without uploading anything?',
    a: 'Yes. Run the report command without --upload to print the memory report locally.',
  },
  {
    q: 'I lost my API key. What now?',
    a: 'Keys are shown only once. Regenerate it in the project settings and update the repository secret; the old key stops working.',
  },
  {
    q: 'Does it work with CI systems other than GitHub Actions?',
    a: 'Yes. The CLI runs anywhere Node.js runs: GitLab CI, Jenkins, Buildkite or a laptop.',
  },
  {
    q: 'Can I run Memtrail on my own servers?',
    a: `Yes, on-premises deployment is available. Contact ${SUPPORT_EMAIL}.`,
  },
];

export function TutorialPage() {
  return (
    <div className="doc-page">
      <div className="doc">
        <header className="doc__header">
          <p className="eyebrow">Tutorial</p>
          <h1>Get started with Memtrail</h1>
          <p className="doc__lead">
            From a new project to memory reports on every pull request, with your last {N} commits
            onboarded so the charts have history from day one.
          </p>
        </header>

        <nav className="doc__toc" aria-label="On this page">
          <a href="#create-project">1. Create a project</a>
          <a href="#api-key">2. Copy the API key</a>
          <a href="#secret">3. Store it as a secret</a>
          <a href="#onboard">4. Onboard your history</a>
          <a href="#pull-requests">5. Monitor pull requests</a>
          <a href="#faq">FAQ</a>
        </nav>

        <section id="create-project" className="doc__step">
          <h2>
            <span className="doc__num">1</span> Create a project
          </h2>
          <p>
            <Link to="/auth">Sign in</Link>, open <strong>Projects</strong> and create a project for
            your firmware repository. A project holds any number of targets, one per board or build
            configuration.
          </p>
        </section>

        <section id="api-key" className="doc__step">
          <h2>
            <span className="doc__num">2</span> Copy the API key
          </h2>
          <p>
            Right after creation the project's API key is displayed.{' '}
            <strong>It is shown once</strong>: copy it now. If it is lost, regenerate it in the
            project settings.
          </p>
        </section>

        <section id="secret" className="doc__step">
          <h2>
            <span className="doc__num">3</span> Store it as a repository secret
          </h2>
          <p>
            In GitHub go to{' '}
            <em>Settings → Secrets and variables → Actions → New repository secret</em>, name it{' '}
            <code>MEMTRAIL_API_KEY</code> and paste the key. Other CI systems have an equivalent
            masked variable.
          </p>
        </section>

        <section id="onboard" className="doc__step">
          <h2>
            <span className="doc__num">4</span> Onboard the last {N} commits
          </h2>
          <p>
            A historical onboarding checks out each of the last {N} commits, builds it and uploads
            its memory report, oldest first. Run it once from the GitHub Action (replace{' '}
            <code>your-org/memtrail</code> with the repository that hosts the Memtrail action):
          </p>
          <CodeBlock label="GitHub Actions" code={ONBOARD_ACTION} />
          <p>or from a checkout of your repository with the CLI:</p>
          <CodeBlock label="Terminal" code={ONBOARD_CLI} />
          <table className="doc__table">
            <caption>Onboarding inputs</caption>
            <thead>
              <tr>
                <th scope="col">Input</th>
                <th scope="col">Meaning</th>
              </tr>
            </thead>
            <tbody>
              {INPUTS.map(([name, meaning]) => (
                <tr key={name}>
                  <td>
                    <code>{name}</code>
                  </td>
                  <td>{meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section id="pull-requests" className="doc__step">
          <h2>
            <span className="doc__num">5</span> Monitor pull requests
          </h2>
          <p>
            Add a workflow that reports every push to <code>main</code> and every pull request.
            Pull-request reports are compared with their base, so reviewers see which symbols grew
            before merging.
          </p>
          <CodeBlock label="GitHub Actions" code={PR_ACTION} />
          <p>Any other CI system runs the CLI after its build:</p>
          <CodeBlock label="Any CI" code={REPORT_CLI} />
          <p>
            To test locally without uploading, leave out <code>--upload</code>:
          </p>
          <CodeBlock label="Terminal" code={LOCAL_CLI} />
        </section>

        <section id="faq" className="doc__faq">
          <h2>FAQ</h2>
          {FAQ.map((item) => (
            <details key={item.q} className="faq">
              <summary>{item.q}</summary>
              <p>{item.a}</p>
            </details>
          ))}
        </section>
      </div>
      <Footer />
    </div>
  );
}
