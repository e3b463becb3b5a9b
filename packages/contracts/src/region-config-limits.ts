/** Bounds of a target's region configuration (region-config.ts has the rules). */
export const REGION_CONFIG_LIMITS = {
  regions: 64,
  nameMax: 64,
  displayNameMax: 100,
  orderMax: 999,
  sourceRootMax: 500,
} as const;
