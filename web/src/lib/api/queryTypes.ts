// The query service's answers as defined in the contracts, under the names the pages use.
export type {
  ChainCommit,
  CommitDiffData,
  CommitPageData as CommitPage,
  CommitReportData,
  GrowersData,
  Head,
  HistoryData,
  RegionSeriesData,
  SeriesCommit,
  ReportSymbolRow,
  TreeData,
  TreeNode,
} from '@memtrail/contracts';
