// Number and text formatting shared by the tables and charts.

import { formatBytes } from '@memtrail/contracts';

export { formatBytes };

/** Signed byte change: +1.2 KiB, −320 B, 0 B. */
export function formatDelta(bytes: number): string {
  if (bytes === 0) return '0 B';
  return `${bytes > 0 ? '+' : '−'}${formatBytes(Math.abs(bytes))}`;
}

export const formatInt = (value: number) => value.toLocaleString('en-US');

export function formatPercent(used: number, limit: number): string {
  if (limit <= 0) return '—';
  return `${((used / limit) * 100).toFixed(1)}%`;
}

export const shortSha = (sha: string) => sha.slice(0, 8);

export const hex = (address: number) => `0x${address.toString(16).padStart(8, '0')}`;

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString('en-GB', {
        year: 'numeric',
        month: 'short',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
}

/** First line of a commit message. */
export const subjectOf = (message: string | null | undefined) =>
  (message ?? '').split('\n', 1)[0] || '(no message)';

/** Utilisation level for colouring bars: under 75 % fine, under 90 % warning, else critical. */
export function usageLevel(used: number, limit: number): 'ok' | 'warn' | 'bad' {
  if (limit <= 0) return 'ok';
  const share = used / limit;
  return share >= 0.9 ? 'bad' : share >= 0.75 ? 'warn' : 'ok';
}
