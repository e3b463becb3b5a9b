import type { GitMetadata, MemoryReport, UploadEnvelope } from '@memtrail/contracts';
import { VERSION } from '../context.js';

/** Metadata-only report meaning "same footprint as the parent" (compat spec §2.3). */
export function identicalReport(filePath: string | null = null): MemoryReport {
  return {
    file_path: filePath,
    architecture: null,
    toolchain: null,
    entry_point: null,
    file_type: null,
    machine: null,
    symbols: [],
    program_headers: [],
    memory_layout: {},
  };
}

/** The report sent for a commit that did not build (compat spec §2.3). */
export function failedBuildReport(filePath: string | null): MemoryReport {
  return {
    file_path: filePath,
    architecture: null,
    toolchain: null,
    entry_point: 0,
    file_type: 'unknown',
    machine: 'unknown',
    symbols: [],
    program_headers: [],
    memory_layout: {},
  };
}

export interface EnvelopeInput {
  report: MemoryReport;
  git: GitMetadata;
  targetName: string;
  identical: boolean;
  /** Sent only when known (onboarding, --build-failed), as the MemBrowse CLI does. */
  buildFailed?: boolean;
}

/** `{metadata, memory_analysis}` exactly as compat spec §2.5 lays it out. */
export function buildEnvelope(input: EnvelopeInput): UploadEnvelope {
  return {
    metadata: {
      git: input.git,
      repository: input.git.repository ?? null,
      target_name: input.targetName,
      analysis_version: VERSION,
      architecture: input.report.architecture ?? null,
      toolchain: input.report.toolchain ?? null,
      ...(input.buildFailed === undefined ? {} : { build_failed: input.buildFailed }),
      identical: input.identical,
    },
    memory_analysis: input.report,
  };
}
