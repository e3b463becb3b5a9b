import { z } from 'zod';
import { REGION_CONFIG_LIMITS } from '../region-config-limits.js';
import { isoTime } from './common.js';

export const RegionKind = z.enum(['flash', 'ram', 'other']);
export type RegionKind = z.infer<typeof RegionKind>;

/** Settings of one region; every field optional (region-config.ts has the rules and messages). */
export const RegionSettings = z
  .object({
    display_name: z.string().min(1).max(REGION_CONFIG_LIMITS.displayNameMax).optional(),
    kind: RegionKind.optional(),
    limit: z
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe("Overrides the linker script's size (bytes); null clears an override"),
    hidden: z
      .boolean()
      .optional()
      .describe('True hides the region; false shows it even when it is an empty placeholder'),
    order: z
      .int()
      .min(0)
      .max(REGION_CONFIG_LIMITS.orderMax)
      .optional()
      .describe(
        'Position among the regions, ascending; regions without one follow in address order',
      ),
    merge_into: z
      .string()
      .min(1)
      .max(REGION_CONFIG_LIMITS.nameMax)
      .optional()
      .describe('Shown as this other region: an earlier (or later) name of the same memory'),
  })
  .strict()
  .meta({ id: 'RegionSettings' });
export type RegionSettings = z.infer<typeof RegionSettings>;

const regionMap = z.record(z.string().min(1).max(REGION_CONFIG_LIMITS.nameMax), RegionSettings);

export const RegionConfigDocument = z
  .object({
    version: z.literal(2),
    regions: regionMap,
    source_root: z
      .string()
      .min(1)
      .max(REGION_CONFIG_LIMITS.sourceRootMax)
      .nullable()
      .optional()
      .describe(
        'Build-machine folder stripped from the start of source paths, so paths show relative to the repository; null or absent: found per report',
      ),
  })
  .strict()
  .meta({ id: 'RegionConfigDocument' });
export type RegionConfigDocument = z.infer<typeof RegionConfigDocument>;

/** The first format: settings keyed by region name, nothing else. */
export const LegacyRegionConfig = regionMap.meta({ id: 'LegacyRegionConfig' });
export type LegacyRegionConfig = z.infer<typeof LegacyRegionConfig>;

/**
 * A target's region configuration, in either shape (region-config.ts). Checked on write with
 * `regionConfigProblems`, whose sentences name the region and field.
 */
export const RegionConfig = z
  .union([RegionConfigDocument, LegacyRegionConfig])
  .meta({ id: 'RegionConfig' });
export type RegionConfig = z.infer<typeof RegionConfig>;

export const SeenRegion = z
  .object({
    name: z.string(),
    address: z.int(),
    limit_size: z.int(),
    used_size: z.int(),
    last_seen: isoTime
      .nullable()
      .describe(
        'Commit time of the newest report with the region (null when the upload gave none)',
      ),
  })
  .meta({ id: 'SeenRegion' });
export type SeenRegion = z.infer<typeof SeenRegion>;

export const RegionConfigData = z
  .object({
    region_config: RegionConfig,
    regions: z
      .array(SeenRegion)
      .optional()
      .describe(
        "GET only: every region name the target's reports have had (a renamed region under both names), in address order",
      ),
  })
  .meta({ id: 'RegionConfigData' });
export type RegionConfigData = z.infer<typeof RegionConfigData>;

/** How a region is shown: carried by every region row the services answer with. */
export const RegionPresentation = z.object({
  display_name: z.string().describe("The region config's display name, else the region's name"),
  kind: RegionKind.nullable(),
  hidden: z
    .boolean()
    .describe(
      'Hidden by the region config, or by default when nothing uses it (a placeholder, or memory the build never puts anything in)',
    ),
  placeholder: z
    .boolean()
    .describe('Zero-length, or neither sized nor used: a linker-script placeholder'),
});
export type RegionPresentation = z.infer<typeof RegionPresentation>;
