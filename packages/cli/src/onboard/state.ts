import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type Outcome = 'full' | 'identical' | 'build_failed';

interface StateFile {
  version: 1;
  target: string;
  api_url: string;
  uploaded: Record<string, Outcome>;
}

/**
 * Which commits of one target (on one server) are already uploaded, so an interrupted onboarding
 * resumes where it stopped. Written after every upload, atomically (write then rename).
 */
export class OnboardState {
  private constructor(
    readonly file: string,
    private readonly data: StateFile,
  ) {}

  static fileFor(dir: string, target: string, apiUrl: string): string {
    const safe = target.replace(/[^\w.-]+/g, '_');
    const server = createHash('sha256').update(apiUrl).digest('hex').slice(0, 8);
    return join(dir, `onboard-${safe}-${server}.json`);
  }

  static load(file: string, target: string, apiUrl: string, restart: boolean): OnboardState {
    const fresh: StateFile = { version: 1, target, api_url: apiUrl, uploaded: {} };
    if (restart || !existsSync(file)) return new OnboardState(file, fresh);
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
      return new OnboardState(file, { ...fresh, uploaded: data.uploaded ?? {} });
    } catch (error) {
      throw new Error(
        `cannot read the onboarding state ${file} (use --restart to ignore it): ${(error as Error).message}`,
      );
    }
  }

  outcome(sha: string): Outcome | undefined {
    return this.data.uploaded[sha];
  }

  record(sha: string, outcome: Outcome): void {
    this.data.uploaded[sha] = outcome;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.data, null, 2));
    renameSync(temporary, this.file);
  }
}
