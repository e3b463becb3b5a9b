// Browser storage keys, all prefixed with the product name so they never clash with other apps
// on the same origin (spec §3).
export const STORAGE_KEYS = {
  accessToken: 'memtrail_access_token',
  refreshToken: 'memtrail_refresh_token',
  user: 'memtrail_user',
  /** Cloud mode keeps its whole session under one key of its own. */
  hostedSession: 'memtrail_auth_session',
  /** The dashboard chart's y-axis scale ('usage' or 'limits'), kept across visits. */
  seriesScale: 'memtrail_series_scale',
  /** The organisation chosen in the header (an id), absent for all of them. */
  organization: 'memtrail_organization',
  /** An invitation link opened while signed out, accepted after sign-in. */
  pendingInvitation: 'memtrail_pending_invitation',
  /** The dashboard chart's x-axis ('time' or 'commit'), kept across visits. */
  seriesAxis: 'memtrail_series_axis',
  /** Session storage: the page a signed-out visitor asked for, opened after sign-in. */
  returnTo: 'memtrail_return_to',
} as const;
