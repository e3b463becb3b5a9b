import type {
  LegacyRegionConfig,
  RegionConfigDocument,
  RegionSettings,
} from './schemas/regions.js';
import { REGION_CONFIG_LIMITS } from './region-config-limits.js';

/**
 * Per-target region configuration (`region_config` of a target, product spec §3, §7): how the
 * memory regions of its reports are shown. Applied by the query service (series, commit lists,
 * reports, diffs, trees), the gateway (budgets, upload answers, PR-comment summaries) and the web,
 * all through {@link RegionPlan} (region-plan.ts).
 *
 * Two shapes are accepted and stored as given:
 * - the document `{ version: 2, regions: { [region]: settings }, source_root?: string | null }`;
 * - the first format, settings keyed by region name at the top level (`{ FLASH: {...} }`),
 *   which reads as a document without a source root.
 *
 * Settings of one region (keyed by its name in the reports, 1-64 characters), every field
 * optional: `display_name` (1-100 characters), `kind` (`flash`, `ram`, `other`), `limit` (bytes,
 * overrides the linker script; null clears it), `hidden` (true hides it, false shows it even when
 * empty), `order` (integer 0-999, ascending; regions without one follow in address order) and
 * `merge_into` (the name of another region: a region renamed over history, e.g. `flash` in older
 * reports and `flash0` in newer ones, is shown as one). At most 64 regions.
 */

/** One problem of a region configuration: where it is (region and field) and what it is. */
export interface RegionConfigProblem {
  region?: string;
  field?: keyof RegionSettings | 'source_root';
  message: string;
}

const REGION_KINDS: readonly string[] = ['flash', 'ram', 'other'];
const REGION_KEYS = new Set(['display_name', 'kind', 'limit', 'hidden', 'order', 'merge_into']);
const DOCUMENT_KEYS = new Set(['version', 'regions', 'source_root']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A document has a numeric `version`; in the first format every value is a settings object. */
const isDocument = (value: Record<string, unknown>) => typeof value.version === 'number';

const validName = (name: string) =>
  name.trim() !== '' && name.length <= REGION_CONFIG_LIMITS.nameMax;

function settingsProblems(
  name: string,
  settings: unknown,
  all: Record<string, unknown>,
): RegionConfigProblem[] {
  if (!isObject(settings))
    return [{ region: name, message: `Region ${name}: settings must be an object` }];
  const problems: RegionConfigProblem[] = [];
  const problem = (field: keyof RegionSettings, message: string) =>
    problems.push({ region: name, field, message: `Region ${name}: ${message}` });
  const unknown = Object.keys(settings).find((key) => !REGION_KEYS.has(key));
  if (unknown) problems.push({ region: name, message: `Region ${name}: unknown field ${unknown}` });
  const { display_name, kind, limit, hidden, order, merge_into } = settings;
  if (
    display_name !== undefined &&
    (typeof display_name !== 'string' ||
      !display_name.trim() ||
      display_name.length > REGION_CONFIG_LIMITS.displayNameMax)
  ) {
    problem(
      'display_name',
      `display_name must be 1-${REGION_CONFIG_LIMITS.displayNameMax} characters`,
    );
  }
  if (kind !== undefined && (typeof kind !== 'string' || !REGION_KINDS.includes(kind))) {
    problem('kind', 'kind must be flash, ram or other');
  }
  if (
    limit !== undefined &&
    limit !== null &&
    !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0)
  ) {
    problem('limit', 'limit must be a non-negative integer number of bytes or null');
  }
  if (hidden !== undefined && typeof hidden !== 'boolean') {
    problem('hidden', 'hidden must be true or false');
  }
  if (
    order !== undefined &&
    !(
      typeof order === 'number' &&
      Number.isInteger(order) &&
      order >= 0 &&
      order <= REGION_CONFIG_LIMITS.orderMax
    )
  ) {
    problem('order', `order must be a whole number from 0 to ${REGION_CONFIG_LIMITS.orderMax}`);
  }
  if (merge_into !== undefined) {
    if (typeof merge_into !== 'string' || !validName(merge_into)) {
      problem(
        'merge_into',
        `merge_into must name a region (1-${REGION_CONFIG_LIMITS.nameMax} characters)`,
      );
    } else if (merge_into === name) {
      problem('merge_into', 'merge_into must name another region');
    } else if (isObject(all[merge_into]) && all[merge_into].merge_into !== undefined) {
      problem(
        'merge_into',
        `${merge_into} is itself merged into another region; merge into that one`,
      );
    }
  }
  return problems;
}

/**
 * Every problem of a region configuration (either shape), each a sentence naming the region and
 * field; empty when the configuration is valid.
 */
export function regionConfigProblems(value: unknown): RegionConfigProblem[] {
  if (!isObject(value))
    return [{ message: 'region_config must be an object keyed by region name' }];
  let regions: unknown = value;
  const problems: RegionConfigProblem[] = [];
  if (isDocument(value)) {
    if (value.version !== 2) problems.push({ message: 'region_config version must be 2' });
    const unknown = Object.keys(value).find((key) => !DOCUMENT_KEYS.has(key));
    if (unknown) problems.push({ message: `region_config has an unknown field ${unknown}` });
    const root = value.source_root;
    if (
      root !== undefined &&
      root !== null &&
      (typeof root !== 'string' || !root.trim() || root.length > REGION_CONFIG_LIMITS.sourceRootMax)
    ) {
      problems.push({
        field: 'source_root',
        message: `source_root must be a path of 1-${REGION_CONFIG_LIMITS.sourceRootMax} characters or null`,
      });
    }
    regions = value.regions;
    if (!isObject(regions)) {
      return [
        ...problems,
        { message: 'region_config.regions must be an object keyed by region name' },
      ];
    }
  }
  const entries = Object.entries(regions as Record<string, unknown>);
  if (entries.length > REGION_CONFIG_LIMITS.regions) {
    problems.push({
      message: `region_config cannot have more than ${REGION_CONFIG_LIMITS.regions} regions`,
    });
  }
  for (const [name, settings] of entries) {
    if (!validName(name)) {
      problems.push({
        message: `Region names must be 1-${REGION_CONFIG_LIMITS.nameMax} characters`,
      });
      continue;
    }
    problems.push(...settingsProblems(name, settings, regions as Record<string, unknown>));
  }
  return problems;
}

/** The first problem of a region configuration as a sentence, or null when it is valid. */
export function validateRegionConfig(value: unknown): string | null {
  return regionConfigProblems(value)[0]?.message ?? null;
}

/**
 * Any stored configuration as a document: the first format is read as the regions of a
 * document, and a missing one (null, `{}`) is an empty document.
 */
export function regionConfigDocument(value: unknown): RegionConfigDocument {
  if (!isObject(value)) return { version: 2, regions: {} };
  if (!isDocument(value)) return { version: 2, regions: value as LegacyRegionConfig };
  const regions = isObject(value.regions) ? (value.regions as LegacyRegionConfig) : {};
  const root = typeof value.source_root === 'string' ? value.source_root : null;
  return { version: 2, regions, ...(root ? { source_root: root } : {}) };
}
