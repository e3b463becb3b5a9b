import { execFile } from 'node:child_process';

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly cwd: string,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed in ${cwd}: ${stderr.trim() || 'no output'}`);
    this.name = 'GitError';
  }
}

/** Runs git and returns stdout without the trailing newline; rejects with the command and stderr. */
export function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (error) reject(new GitError(args, cwd, stderr || error.message));
        else resolve(stdout.replace(/\n$/, ''));
      },
    );
  });
}

/** For facts that may legitimately be absent (no remote, root commit, not a repository). */
export async function gitOrNull(cwd: string, args: string[]): Promise<string | null> {
  try {
    return await git(cwd, args);
  } catch {
    return null;
  }
}
