/**
 * Runs a composite GitHub Action's steps the way the Actions runner does, on this machine: inputs
 * with their defaults, `if:` conditions and `${{ }}` expressions evaluated by GitHub's own
 * expression library, each `run:` step through `bash -e -o pipefail` with its `env:`, a fresh
 * GITHUB_OUTPUT file per step whose `name=value` lines become `steps.<id>.outputs`, and the
 * action's outputs. A `uses:` step whose condition holds cannot run here and fails the run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { data, Evaluator, Lexer, Parser } from '@actions/expressions';
import { truthy } from '@actions/expressions/result';
import { parse } from 'yaml';

interface ActionStep {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}

interface ActionFile {
  inputs?: Record<string, { required?: boolean; default?: string }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRun {
  id?: string;
  skipped: boolean;
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

export interface ActionRun {
  steps: StepRun[];
  failed: boolean;
  outputs: Record<string, string>;
}

export interface RunOptions {
  /** The directory holding action.yml (GITHUB_ACTION_PATH). */
  actionPath: string;
  inputs: Record<string, string>;
  /** The job's environment: GITHUB_*, RUNNER_TEMP, GITHUB_STEP_SUMMARY… */
  env: Record<string, string | undefined>;
  /** The checked-out repository the steps run in. */
  workspace: string;
  /** The `github` context's values, e.g. `{ token: '…' }`. */
  github?: Record<string, string>;
}

type Value = data.ExpressionData;

function toData(value: unknown): Value {
  if (value === null || value === undefined) return new data.Null();
  if (typeof value === 'string') return new data.StringData(value);
  if (typeof value === 'boolean') return new data.BooleanData(value);
  if (typeof value === 'number') return new data.NumberData(value);
  const dict = new data.Dictionary();
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) dict.add(key, toData(v));
  return dict;
}

function evaluate(expression: string, context: Record<string, unknown>): Value {
  const lexed = new Lexer(expression).lex();
  const parsed = new Parser(lexed.tokens, Object.keys(context), []).parse();
  return new Evaluator(parsed, toData(context) as data.Dictionary).evaluate();
}

/** A string with `${{ … }}` parts replaced by their values, as the runner templates them. */
function template(text: string, context: Record<string, unknown>): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) =>
    evaluate(expression.trim(), context).coerceString(),
  );
}

function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

function bash(
  script: string,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The runner's `shell: bash`: bash --noprofile --norc -eo pipefail {0}
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export async function runCompositeAction(options: RunOptions): Promise<ActionRun> {
  const action = parse(readFileSync(join(options.actionPath, 'action.yml'), 'utf8')) as ActionFile;
  if (action.runs.using !== 'composite') throw new Error('only composite actions run here');
  const github = {
    action_path: options.actionPath,
    workspace: options.workspace,
    ...options.github,
  };
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    const given = options.inputs[name];
    if (given === undefined && spec.required) throw new Error(`input ${name} is required`);
    inputs[name] = given ?? template(spec.default ?? '', { github });
  }
  const unknown = Object.keys(options.inputs).filter((name) => !(name in inputs));
  if (unknown.length > 0) throw new Error(`the action has no input ${unknown.join(', ')}`);

  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const runs: StepRun[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'actions-runner-'));
  let failed = false;
  try {
    for (const [index, step] of action.runs.steps.entries()) {
      const context = { inputs, steps, github, env: options.env };
      const wanted = !failed && (step.if === undefined || truthy(evaluate(step.if, context)));
      if (!wanted) {
        runs.push({ id: step.id, skipped: true, code: 0, stdout: '', stderr: '', outputs: {} });
        continue;
      }
      if (step.uses)
        throw new Error(`step ${step.id ?? index} would run ${step.uses}, which cannot run here`);
      if (step.shell !== 'bash')
        throw new Error(`step ${step.id ?? index}: only shell: bash is simulated`);
      const output = join(scratch, `output-${index}`);
      writeFileSync(output, '');
      const env: Record<string, string | undefined> = {
        ...options.env,
        GITHUB_ACTION_PATH: options.actionPath,
        GITHUB_WORKSPACE: options.workspace,
        GITHUB_OUTPUT: output,
      };
      for (const [name, value] of Object.entries(step.env ?? {}))
        env[name] = template(String(value), context);
      const result = await bash(template(step.run ?? '', context), options.workspace, env);
      const outputs = readOutputs(output);
      if (step.id) steps[step.id] = { outputs };
      runs.push({ id: step.id, skipped: false, ...result, outputs });
      if (result.code !== 0) failed = true;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs ?? {})) {
    outputs[name] = template(spec.value, { inputs, steps, github, env: options.env });
  }
  return { steps: runs, failed, outputs };
}
