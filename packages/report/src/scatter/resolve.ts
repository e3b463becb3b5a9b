/**
 * Addresses and sizes of scatter-file regions, computed as armlink lays them out:
 * - a load region's `+offset` counts from the end of the previous load region's image;
 * - an execution region's `+offset` counts from the end of the previous execution region's content
 *   in the same load region (ImageLimit), or from the load region's base for the first one; an
 *   OVERLAY region following an OVERLAY region starts where that one starts;
 * - `ALIGN n` rounds the base up; `EMPTY -size` grows down from the base;
 * - ImageBase/ImageLimit/ImageLength and the Load… functions come from the regions before.
 * What depends on the size of a region's content (ImageLimit, and so `+0` after it) needs the linked
 * image: with one, a region's content is the ELF sections named after it (armlink names output
 * sections after execution regions); without one, such values stay unresolved, with the reason.
 */
import type { SourcePosition } from '../linker/errors.js';
import type {
  ExecutionRegionDecl,
  InputSectionDescription,
  RegionAttribute,
  ScatterExpr,
  ScatterFileAst,
} from './ast.js';
import { ScatterError } from './errors.js';
import {
  alignUp,
  evaluateScatter,
  isUnknown,
  type EvalContext,
  type RegionFunction,
  type Unknown,
  type Value,
} from './evaluate.js';

/** An allocated ELF section, as far as scatter files need it. */
export interface ScatterImageSection {
  address: number;
  size: number;
  /** Where its bytes are stored (the segment's physical address); equal to `address` in place. */
  loadAddress: number;
  nobits: boolean;
}

/** The linked image, to resolve what depends on the size of regions' content. */
export interface ScatterImage {
  /** The allocated sections armlink named after this execution region. */
  sectionsNamed(name: string): ScatterImageSection[];
  /** Whether the image defines this global symbol (for `defined(symbol)`). */
  hasSymbol(name: string): boolean;
  /** ELF header plus program headers, for SizeOfHeaders(). */
  headerSize: number;
}

export interface ResolvedRegion {
  name: string;
  type: 'load' | 'execution';
  /** For an execution region: the load region holding it. */
  loadRegion?: string;
  origin?: bigint;
  length?: bigint;
  /** Why `origin` or `length` is missing. */
  unresolved?: string;
  /** For a load region: the end of its image, known with the linked image. */
  imageLimit?: bigint;
  attributes: RegionAttribute[];
  inputs: InputSectionDescription[];
  position: SourcePosition;
}

export interface ScatterWarning {
  message: string;
  position?: SourcePosition;
}

interface RegionState {
  imageBase: Value;
  imageLimit: Value;
  loadBase: Value;
  loadLimit: Value;
}

function unknown(reason: string): Unknown {
  return { unknown: true, reason };
}

const has = (attributes: RegionAttribute[], keyword: string): boolean =>
  attributes.some((a) => a.keyword === keyword);

export function resolveScatter(
  ast: ScatterFileAst,
  image: ScatterImage | undefined,
  warnings: ScatterWarning[],
): ResolvedRegion[] {
  const states = new Map<string, RegionState>();
  const regions: ResolvedRegion[] = [];
  const seen = new Map<string, SourcePosition>();
  const declare = (name: string, position: SourcePosition): void => {
    const earlier = seen.get(name);
    if (earlier) {
      throw new ScatterError(
        `region ${name} is declared twice (first at ${earlier.file}:${earlier.line})`,
        position,
      );
    }
    seen.set(name, position);
  };

  const context = (cursor?: Value): EvalContext => ({
    ...(cursor !== undefined && { cursor }),
    region(fn: RegionFunction, name: string, position: SourcePosition): Value {
      const state = states.get(name);
      if (!state) {
        throw new ScatterError(
          `${fn}(${name}): no region ${name} is declared before this point`,
          position,
        );
      }
      const [base, limit] = fn.startsWith('image')
        ? [state.imageBase, state.imageLimit]
        : [state.loadBase, state.loadLimit];
      if (fn.endsWith('base')) return base;
      if (fn.endsWith('limit')) return limit;
      if (isUnknown(base)) return base;
      return isUnknown(limit) ? limit : limit - base;
    },
    symbolDefined(name: string): Value {
      if (!image) return unknown(`defined(${name}) needs the linked image`);
      return image.hasSymbol(name) ? 1n : 0n;
    },
    headerSize: image
      ? BigInt(image.headerSize)
      : unknown('SizeOfHeaders() needs the linked image'),
  });

  const evaluate = (expr: ScatterExpr, cursor?: Value): Value =>
    evaluateScatter(expr, context(cursor));

  const aligned = (base: Value, attributes: RegionAttribute[]): Value => {
    const align = attributes.find((a) => a.keyword === 'ALIGN')?.argument?.expr;
    if (!align || isUnknown(base)) return base;
    const alignment = evaluate(align);
    return isUnknown(alignment) ? alignment : alignUp(base, alignment);
  };

  let previousLoadLimit: Value = 0n;
  for (const load of ast.loadRegions) {
    declare(load.name, load.position);
    const loadBase = aligned(evaluate(load.base, previousLoadLimit), load.attributes);
    const maxSize = load.size ? evaluate(load.size) : undefined;
    const members: ExecutionRegionDecl[] = [];
    let previous: { decl: ExecutionRegionDecl; base: Value; state: RegionState } | undefined;
    for (const exec of load.executionRegions) {
      declare(exec.name, exec.position);
      const overlayChain =
        has(exec.attributes, 'OVERLAY') && previous && has(previous.decl.attributes, 'OVERLAY');
      const cursor = !previous
        ? loadBase
        : overlayChain
          ? previous.base
          : previous.state.imageLimit;
      const base = aligned(evaluate(exec.base, cursor), exec.attributes);
      const size = exec.size ? evaluate(exec.size) : undefined;
      const state = executionState(exec, base, size, image);
      states.set(exec.name, state);
      regions.push(executionRegion(exec, load.name, base, size, state));
      members.push(exec);
      previous = { decl: exec, base, state };
    }
    const loadLimit = loadImageLimit(loadBase, members, image);
    states.set(load.name, {
      imageBase: loadBase,
      imageLimit: loadLimit,
      loadBase,
      loadLimit,
    });
    regions.splice(regions.length - members.length, 0, {
      name: load.name,
      type: 'load',
      ...known('origin', loadBase),
      ...(maxSize === undefined
        ? { unresolved: `load region ${load.name} has no maximum size` }
        : known('length', maxSize)),
      ...(!isUnknown(loadLimit) && { imageLimit: loadLimit }),
      attributes: load.attributes,
      inputs: [],
      position: load.position,
    });
    for (const condition of load.asserts) checkAssert(condition, evaluate, warnings);
    previousLoadLimit = loadLimit;
  }
  for (const condition of ast.asserts) checkAssert(condition, evaluate, warnings);
  fillLengths(regions);
  return regions;
}

/** `{origin}` or `{length}` when known, `{unresolved}` otherwise. */
function known(key: 'origin' | 'length', value: Value): Partial<ResolvedRegion> {
  return isUnknown(value) ? { unresolved: value.reason } : { [key]: value };
}

function executionState(
  exec: ExecutionRegionDecl,
  base: Value,
  size: Value | undefined,
  image: ScatterImage | undefined,
): RegionState {
  if (has(exec.attributes, 'EMPTY')) {
    if (size === undefined) {
      throw new ScatterError(`EMPTY region ${exec.name} needs a length`, exec.position);
    }
    if (isUnknown(base) || isUnknown(size)) {
      const why = isUnknown(base) ? base : (size as Unknown);
      return { imageBase: why, imageLimit: why, loadBase: why, loadLimit: why };
    }
    const [low, high] = size < 0n ? [base + size, base] : [base, base + size];
    return { imageBase: low, imageLimit: high, loadBase: low, loadLimit: low };
  }
  const sections = image?.sectionsNamed(exec.name) ?? [];
  if (!image) {
    const why = unknown(`the end of ${exec.name}'s content needs the linked image`);
    return { imageBase: base, imageLimit: why, loadBase: why, loadLimit: why };
  }
  if (sections.length === 0)
    return { imageBase: base, imageLimit: base, loadBase: base, loadLimit: base };
  const stored = sections.filter((s) => !s.nobits);
  return {
    imageBase: BigInt(Math.min(...sections.map((s) => s.address))),
    imageLimit: BigInt(Math.max(...sections.map((s) => s.address + s.size))),
    loadBase: stored.length ? BigInt(Math.min(...stored.map((s) => s.loadAddress))) : base,
    loadLimit: stored.length
      ? BigInt(Math.max(...stored.map((s) => s.loadAddress + s.size)))
      : base,
  };
}

function executionRegion(
  exec: ExecutionRegionDecl,
  loadRegion: string,
  base: Value,
  size: Value | undefined,
  state: RegionState,
): ResolvedRegion {
  const region: ResolvedRegion = {
    name: exec.name,
    type: 'execution',
    loadRegion,
    attributes: exec.attributes,
    inputs: exec.inputs,
    position: exec.position,
  };
  if (has(exec.attributes, 'EMPTY')) {
    return {
      ...region,
      ...known('origin', state.imageBase),
      ...(isUnknown(size!) ? { unresolved: size.reason } : { length: size! < 0n ? -size! : size! }),
    };
  }
  if (size !== undefined && !isUnknown(size) && size < 0n) {
    throw new ScatterError(
      `execution region ${exec.name} has a negative size without EMPTY`,
      exec.position,
    );
  }
  return {
    ...region,
    ...(size === undefined ? {} : known('length', size)),
    ...known('origin', base),
  };
}

/** The end of a load region's image: everything stored in it, at the addresses it is stored at. */
function loadImageLimit(
  loadBase: Value,
  members: ExecutionRegionDecl[],
  image: ScatterImage | undefined,
): Value {
  if (isUnknown(loadBase)) return loadBase;
  if (!image) return unknown("the end of a load region's image needs the linked image");
  let limit = loadBase;
  for (const exec of members) {
    for (const section of image.sectionsNamed(exec.name)) {
      const end = BigInt(section.loadAddress + section.size);
      if (!section.nobits && end > limit) limit = end;
    }
  }
  return limit;
}

/**
 * An execution region without a maximum size inside its load region is bounded by what is left of
 * the load region (armlink checks the load region's maximum); elsewhere it has no limit.
 */
function fillLengths(regions: ResolvedRegion[]): void {
  const byName = new Map(regions.map((r) => [r.name, r]));
  for (const region of regions) {
    if (region.type !== 'execution' || region.length !== undefined || region.unresolved) continue;
    const load = byName.get(region.loadRegion!)!;
    if (
      region.origin !== undefined &&
      load.origin !== undefined &&
      load.length !== undefined &&
      region.origin >= load.origin &&
      region.origin < load.origin + load.length
    ) {
      region.length = load.origin + load.length - region.origin;
    } else {
      region.unresolved = `execution region ${region.name} has no maximum size`;
    }
  }
}

function checkAssert(
  condition: ScatterExpr,
  evaluate: (expr: ScatterExpr) => Value,
  warnings: ScatterWarning[],
): void {
  const value = evaluate(condition);
  if (isUnknown(value)) return;
  if (value === 0n) {
    warnings.push({
      message: 'ScatterAssert failed (armlink would stop the link)',
      position: condition.position,
    });
  }
}
