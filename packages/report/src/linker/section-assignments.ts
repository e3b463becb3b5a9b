import type { LayoutSection, SectionAssignment } from '../layout/index.js';
import type { RegionAttributes } from './attributes.js';
import type { LinkerScriptModel, SectionPlacement } from './load.js';

/** ld's name for the region of everything no script line places. */
const DEFAULT_REGION = '*default*';

/** The BFD section flags ld's placement rules test, derived from an ELF section header. */
const ALLOC = 1;
const LOAD = 2;
const READONLY = 4;
const CODE = 8;
const DATA = 16;
const HAS_CONTENTS = 32;
const THREAD_LOCAL = 64;

const ATTRIBUTE_FLAGS: Record<string, number> = {
  a: ALLOC,
  r: READONLY,
  w: DATA,
  x: CODE,
  l: LOAD,
};

function bfdFlags(section: LayoutSection): number {
  let flags = ALLOC;
  if (section.type !== 'NOBITS') flags |= LOAD | HAS_CONTENTS;
  if (!section.flags.write) flags |= READONLY;
  if (section.flags.exec) flags |= CODE;
  else if (flags & LOAD) flags |= DATA;
  if (section.flags.tls) flags |= THREAD_LOCAL;
  return flags;
}

/** One output section statement as ld holds it while placing sections. */
interface Statement {
  name: string;
  /** Run-time region after ld's parse-time rules: declared, undeclared or `*default*`. */
  region: string;
  loadRegion: string | undefined;
  explicitAddress: boolean;
  explicitLoadAddress: boolean;
  section: LayoutSection | undefined;
}

function statementOf(placement: SectionPlacement): Statement {
  // lang_get_regions: `AT> R` without `> R` or an address runs in R as well.
  const runsInLoadRegion =
    placement.region === undefined &&
    placement.loadRegion !== undefined &&
    !placement.explicitAddress;
  return {
    name: placement.name,
    region: runsInLoadRegion ? placement.loadRegion! : (placement.region ?? DEFAULT_REGION),
    loadRegion: placement.loadRegion,
    explicitAddress: placement.explicitAddress,
    explicitLoadAddress: placement.explicitLoadAddress,
    section: undefined,
  };
}

function satisfies(placement: SectionPlacement, section: LayoutSection): boolean {
  if (placement.constraint === 'ONLY_IF_RO') return !section.flags.write;
  if (placement.constraint === 'ONLY_IF_RW') return section.flags.write;
  return true;
}

/**
 * Which statement an orphan goes after (ldelf_place_orphan): the statement named like the kind
 * of section it is (.text, .rodata, .data, .bss, .tdata, .interp), else the last statement whose
 * section has compatible flags (lang_output_section_find_by_flags), else none (ld's *ABS*).
 */
function orphanAnchor(section: LayoutSection, statements: Statement[]): Statement | undefined {
  const flags = bfdFlags(section);
  const kind =
    section.type === 'NOTE'
      ? '.interp'
      : !(flags & (LOAD | HAS_CONTENTS | THREAD_LOCAL))
        ? '.bss'
        : flags & THREAD_LOCAL
          ? '.tdata'
          : !(flags & READONLY)
            ? '.data'
            : !(flags & CODE)
              ? '.rodata'
              : '.text';
  const named = statements.find((statement) => statement.name === kind);
  if (named) return named;
  const masks: number[] = [HAS_CONTENTS | ALLOC | LOAD | READONLY | CODE | THREAD_LOCAL];
  if (flags & CODE) masks.push(HAS_CONTENTS | ALLOC | LOAD | CODE | THREAD_LOCAL);
  else if (flags & READONLY) masks.push(HAS_CONTENTS | ALLOC | LOAD | READONLY);
  else if (flags & THREAD_LOCAL) masks.push(ALLOC | THREAD_LOCAL);
  else if (flags & HAS_CONTENTS) masks.push(HAS_CONTENTS | ALLOC | LOAD | THREAD_LOCAL);
  else masks.push(ALLOC);
  for (const sameType of [true, false]) {
    for (const mask of masks) {
      const found = statements.findLast(
        (statement) =>
          statement.section !== undefined &&
          (!sameType || statement.section.type === section.type) &&
          ((bfdFlags(statement.section) ^ flags) & mask) === 0,
      );
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The first region whose attributes accept the section (lang_memory_default): what ld uses for a
 * section that names no region and no address.
 */
function regionByAttributes(
  section: LayoutSection,
  regions: LinkerScriptModel['regions'],
): string | undefined {
  let flags = bfdFlags(section);
  if ((flags & (ALLOC | READONLY | CODE)) === ALLOC) flags |= DATA;
  const mask = (letters: RegionAttributes['set']) =>
    letters.reduce((sum, letter) => sum | (ATTRIBUTE_FLAGS[letter] ?? 0), 0);
  return regions.find(
    (region) =>
      (mask(region.attributes.set) & flags) !== 0 &&
      (mask(region.attributes.negated) & flags) === 0,
  )?.name;
}

/**
 * The region and load region GNU ld charges for each allocated output section of the ELF, by the
 * rules of ld 2.40 (ldlang.c): `> R` and `AT> L` as written (REGION_ALIAS resolved); `AT> L` alone
 * runs in L too; a statement with neither an address nor a load address, in the same region as
 * the statement before it, loads in that one's load region; a statement naming no region and no
 * address goes to the first region whose attributes accept it; a section no statement names (an
 * orphan) takes the regions of the statement ld puts it after. Regions ld creates for undeclared
 * names are not reported, so sections placed there get no assignment.
 */
export function sectionAssignments(
  model: LinkerScriptModel,
  sections: LayoutSection[],
): Map<string, SectionAssignment> {
  const statements = model.placements.map(statementOf);
  const orphans: LayoutSection[] = [];
  for (const section of sections) {
    if (!section.flags.alloc) continue;
    const index = model.placements.findIndex(
      (placement, i) =>
        placement.name === section.name &&
        statements[i]!.section === undefined &&
        satisfies(placement, section),
    );
    if (index >= 0) statements[index]!.section = section;
    else orphans.push(section);
  }

  const lastAfter = new Map<Statement | undefined, Statement>();
  for (const section of orphans) {
    const anchor = orphanAnchor(section, statements);
    const orphan: Statement = {
      name: section.name,
      region: anchor?.region ?? DEFAULT_REGION,
      loadRegion: anchor?.loadRegion,
      explicitAddress: false,
      explicitLoadAddress: false,
      section,
    };
    const previous = lastAfter.get(anchor) ?? anchor;
    statements.splice(previous ? statements.indexOf(previous) + 1 : 0, 0, orphan);
    lastAfter.set(anchor, orphan);
  }

  // lang_propagate_lma_regions
  statements.forEach((statement, i) => {
    const previous = statements[i - 1];
    if (
      previous &&
      statement.loadRegion === undefined &&
      !statement.explicitLoadAddress &&
      !statement.explicitAddress &&
      statement.region === previous.region
    )
      statement.loadRegion = previous.loadRegion;
  });

  const declared = new Set(model.regions.map((region) => region.name));
  const assignments = new Map<string, SectionAssignment>();
  for (const statement of statements) {
    const section = statement.section;
    if (!section || assignments.has(section.name)) continue;
    const region =
      statement.region === DEFAULT_REGION && !statement.explicitAddress
        ? regionByAttributes(section, model.regions)
        : statement.region;
    const run = region !== undefined && declared.has(region) ? region : undefined;
    const load =
      statement.loadRegion !== undefined &&
      declared.has(statement.loadRegion) &&
      statement.loadRegion !== region
        ? statement.loadRegion
        : undefined;
    assignments.set(section.name, {
      ...(run !== undefined && { region: run }),
      ...(load !== undefined && { loadRegion: load }),
    });
  }
  return assignments;
}
