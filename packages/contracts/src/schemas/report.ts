import { z } from 'zod';
import { LINE_LIMIT, UPLOAD_TEXT_MAX } from '../upload-limits.js';

/**
 * The memory report format (`memory_analysis`) and upload envelope, compatible with the MemBrowse
 * CLI 1.2.9 (see the compat spec §2). All addresses and sizes are decimal integers. Our CLI
 * writes a superset; the server accepts older shapes, so readers must tolerate missing fields.
 */

/** Addresses and sizes: whole numbers (the gateway takes them up to UInt64's range). */
const count = z.int().min(0);

export const SourceFileOrigin = z.enum(['symbol_table', 'map_file']);
export type SourceFileOrigin = z.infer<typeof SourceFileOrigin>;

export const ReportSymbol = z
  .object({
    name: z.string(),
    address: count,
    size: count,
    type: z
      .string()
      .describe('FUNC, OBJECT, NOTYPE, SECTION, FILE, COMMON, TLS, or a raw name for others'),
    binding: z.string().describe('LOCAL, GLOBAL, WEAK, or a raw name for others'),
    section: z.string().describe("Section name; '' for absolute, undefined and common symbols"),
    source_file: z
      .string()
      .describe("Source path ('' when unknown); older CLIs send a basename only"),
    source_line: count.max(LINE_LIMIT - 1).optional(),
    source_file_from: SourceFileOrigin.optional().describe(
      "Set when source_file does not come from DWARF: symbol_table (the symbol table's STT_FILE symbols) or map_file (the STT_FILE of the object the map file attributes the symbol to); a basename only, no line",
    ),
    full_name: z.string().optional().describe('Demangled name, when it differs from name'),
    visibility: z.string().optional(),
    archive: z.string().optional(),
    object_file: z.string().optional(),
  })
  .meta({ id: 'ReportSymbol' });
export type ReportSymbol = z.infer<typeof ReportSymbol>;

export const ReportSection = z
  .object({
    name: z.string(),
    address: count.describe(
      'Run address, or the load address for the load-image copy of the same section',
    ),
    size: count,
    type: z.string().describe('code, data, rodata, or another kind'),
    end_address: z.int(),
  })
  .meta({ id: 'ReportSection' });
export type ReportSection = z.infer<typeof ReportSection>;

/**
 * How a region's `used_size` was measured (Memtrail reports; MemBrowse sends none):
 * - `linker`: what GNU ld's `--print-memory-usage` says for the link: from the region's origin to
 *   the end of the last section the linker placed in it (padding between sections included);
 * - `linker_extended`: the linker's figure extended over what it does not charge to the region
 *   but lies in it: load images placed with `AT(expr)`, sections given an address but no region;
 * - `occupied`: the bytes the region's sections cover (no gaps), used where the linker's figure
 *   would count free space (a stack pinned at the region's end makes ld say 100 %), where
 *   `--skip-section` removed a section the linker placed there, and for IAR and Arm layouts;
 * - `address`: the sum of the sections whose address lies in the region (no placement known);
 * - `container`: the sum of its `children` (nothing is placed in the region itself, except in an
 *   Arm load region, which also stores the load images of execution regions running elsewhere).
 */
export const UsedSizeBasis = z.enum([
  'linker',
  'linker_extended',
  'occupied',
  'address',
  'container',
]);
export type UsedSizeBasis = z.infer<typeof UsedSizeBasis>;

export const ReportRegion = z
  .object({
    address: count,
    limit_size: count,
    type: z
      .string()
      .describe(
        'UNKNOWN for linker-script regions; FLASH/RAM for inferred ones; rx/rw for defaults',
      ),
    used_size: count,
    free_size: z.int().describe('May be negative (overflow, or default regions without a limit)'),
    utilization_percent: z.number(),
    sections: z.array(ReportSection),
    used_size_basis: UsedSizeBasis.optional(),
    linker_used_size: z
      .int()
      .optional()
      .describe("The linker's own figure, when used_size is measured otherwise"),
    container: z
      .boolean()
      .optional()
      .describe('A region around others: used_size sums its children'),
    children: z
      .array(z.string())
      .optional()
      .describe('Regions directly inside a container, in declaration order'),
    parent: z.string().optional().describe('The container this region lies in'),
    placeholder: z
      .boolean()
      .optional()
      .describe('LENGTH = 0: a name reserved by the script, holding nothing; displays may hide it'),
  })
  .meta({ id: 'ReportRegion' });
export type ReportRegion = z.infer<typeof ReportRegion>;

export const ProgramHeader = z
  .object({
    type: z.string(),
    offset: z.int(),
    virt_addr: z.int(),
    phys_addr: z.int(),
    file_size: z.int(),
    mem_size: z.int(),
    flags: z.string(),
    align: z.int(),
  })
  .meta({ id: 'ProgramHeader' });
export type ProgramHeader = z.infer<typeof ProgramHeader>;

export const MemoryReport = z
  .object({
    file_path: z.string().nullable(),
    architecture: z.string().nullable(),
    toolchain: z.string().nullable().optional(),
    entry_point: z.int().nullable(),
    file_type: z.string().nullable(),
    machine: z.string().nullable(),
    symbols: z.array(ReportSymbol),
    program_headers: z.array(ProgramHeader),
    memory_layout: z
      .record(z.string(), ReportRegion)
      .describe('Region name → region, in linker-script order'),
  })
  .meta({ id: 'MemoryReport' });
export type MemoryReport = z.infer<typeof MemoryReport>;

const sha = z.string().max(UPLOAD_TEXT_MAX.sha).describe('4-64 hexadecimal digits');
const text = (max: number) => z.string().max(max).nullable().optional();

export const GitMetadata = z
  .object({
    commit_hash: sha.nullable().optional().describe('Required: the commit the report is of'),
    base_commit_hash: sha
      .nullable()
      .optional()
      .describe('The parent to compare with (required for an identical upload)'),
    parent_commit_hash: z
      .null()
      .optional()
      .describe('Present (and null) only when the upload explicitly has no parent'),
    branch_name: text(UPLOAD_TEXT_MAX.branch),
    repository: z.string().nullable().optional(),
    commit_message: text(UPLOAD_TEXT_MAX.commitMessage),
    commit_timestamp: text(UPLOAD_TEXT_MAX.timestamp).describe('ISO 8601'),
    author_name: text(UPLOAD_TEXT_MAX.person),
    author_email: text(UPLOAD_TEXT_MAX.person),
    tags: z.array(z.string()).optional(),
    pr_number: text(UPLOAD_TEXT_MAX.prNumber),
    pr_name: text(UPLOAD_TEXT_MAX.prName),
    pr_author_name: text(UPLOAD_TEXT_MAX.person),
    pr_author_email: text(UPLOAD_TEXT_MAX.person),
  })
  .meta({ id: 'GitMetadata' });
export type GitMetadata = z.infer<typeof GitMetadata>;

export const UploadMetadata = z
  .object({
    git: GitMetadata,
    repository: z.string().nullable().optional(),
    target_name: z.string().min(1).max(UPLOAD_TEXT_MAX.targetName),
    analysis_version: z.string().max(UPLOAD_TEXT_MAX.analysisVersion).optional(),
    architecture: z.string().nullable().optional(),
    toolchain: z.string().nullable().optional(),
    build_failed: z.boolean().optional(),
    identical: z.boolean().optional(),
    github_context: z
      .object({
        pr_number: z.int().min(1),
        repository: z.string().min(1).max(200).describe("The base repository's owner/name"),
        commit_sha: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/),
      })
      .optional()
      .describe(
        'Tokenless uploads of the MemBrowse CLI: the pull request the upload claims to come from (checked with the GitHub API)',
      ),
  })
  .meta({ id: 'UploadMetadata' });
export type UploadMetadata = z.infer<typeof UploadMetadata>;

/**
 * Body of `POST /upload`. The gateway checks it with the hand-written `validateUpload` (40k
 * symbols per upload: see docs/benchmarks.md), which also takes the older shapes MemBrowse
 * CLIs send (nulls for texts, numbers for texts).
 */
export const UploadEnvelope = z
  .object({ metadata: UploadMetadata, memory_analysis: MemoryReport })
  .meta({ id: 'UploadEnvelope' });
export type UploadEnvelope = z.infer<typeof UploadEnvelope>;
