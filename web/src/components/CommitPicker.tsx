import type { ChainCommit } from '../lib/api/queryTypes.ts';
import { formatDate, shortSha, subjectOf } from '../lib/format.ts';

/** A commit of the chain by SHA, message and date; a commit not in the list still shows. */
export function CommitPicker({
  label,
  value,
  commits,
  onChange,
}: {
  label: string;
  value: string | undefined;
  commits: ChainCommit[];
  onChange(sha: string): void;
}) {
  const known = commits.some((commit) => commit.sha === value);
  return (
    <label className="select select--wide">
      <span>{label}</span>
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
        {!known && value ? <option value={value}>{shortSha(value)}</option> : null}
        {!value ? <option value="">Choose a commit</option> : null}
        {commits.map((commit) => (
          <option key={commit.sha} value={commit.sha}>
            {shortSha(commit.sha)} · {subjectOf(commit.message).slice(0, 60)} ·{' '}
            {formatDate(commit.committed_at)}
          </option>
        ))}
      </select>
    </label>
  );
}
