import { formatBytes, type ShieldsEndpointBadge } from '@memtrail/contracts';
import { makeBadge } from 'badge-maker';

/** Where a region stands against the budgets that apply to it. */
export type BudgetState = 'within' | 'near' | 'exceeded' | 'none';

/** A region's usage as a badge shows it. */
export interface RegionBadge {
  label: string;
  used: number;
  /** The region's size (the region configuration's override, else the linker's); 0 unknown. */
  limit: number;
  state: BudgetState;
}

/** A budget counts as nearly used up from this share of it on. */
export const NEAR_BUDGET = 0.9;

// shields.io's named colours, so the SVG and the endpoint JSON look alike.
const COLORS: Record<BudgetState, string> = {
  within: 'brightgreen',
  near: 'yellow',
  exceeded: 'red',
  none: 'blue',
};

/** "44.1 % · 113 KiB"; only the size when the region's size is unknown. */
export function badgeMessage({ used, limit }: RegionBadge): string {
  const size = formatBytes(used);
  return limit > 0 ? `${((used / limit) * 100).toFixed(1)} % · ${size}` : size;
}

export function badgeSvg(badge: RegionBadge): string {
  return makeBadge({
    label: badge.label,
    message: badgeMessage(badge),
    color: COLORS[badge.state],
  });
}

export function badgeJson(badge: RegionBadge, cacheSeconds: number): ShieldsEndpointBadge {
  return {
    schemaVersion: 1,
    label: badge.label,
    message: badgeMessage(badge),
    color: COLORS[badge.state],
    cacheSeconds,
  };
}

/** Shown instead of a usage when there is nothing to show: grey, like shields.io's errors. */
export const errorSvg = (message: string) =>
  makeBadge({ label: 'memtrail', message, color: 'lightgrey' });

export const errorJson = (message: string): ShieldsEndpointBadge => ({
  schemaVersion: 1,
  label: 'memtrail',
  message,
  color: 'lightgrey',
  isError: true,
});
