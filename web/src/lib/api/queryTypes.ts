// Shapes of the query service's read answers as the pages use them. The wire fields are read
// tolerantly (normalize.ts) because reports from older uploads may lack some of them.

export interface Head {
  commit_sha: string;
  branch?: string;
  updated_at?: string;
  [field: string]: unknown;
}

export interface RegionUsage {
  used: number;
  limit: number;
}

export interface CommitSummary {
  sha: string;
  message: string;
  author: string | null;
  timestamp: string | null;
  branch: string | null;
  parentSha: string | null;
  /** Region name → used and limit bytes at this commit. */
  regions: Record<string, RegionUsage>;
}

export interface CommitPage {
  commits: unknown[];
  pagination: { total_in_chain: number; has_more: boolean };
  chain_summary: { total_commits: number };
}
