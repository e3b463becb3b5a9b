/**
 * Linker configurations in any of the languages Memtrail reads: GNU ld scripts, IAR ICF files and
 * Arm scatter files, detected per file. `--def NAME=VALUE` is what the language's linker takes on
 * its command line (GNU ld --defsym for names the scripts leave undefined, ILINK --config_def,
 * the scatter preprocessor's -D), and `-L` directories are searched for included files.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadIcfFiles } from '../icf/index.js';
import { LayoutError, type LayoutSection, type LayoutSegment } from '../layout/index.js';
import {
  formatPosition,
  linkerInputs,
  listMemoryRegions,
  loadLinkerScripts,
  sectionAssignments,
} from '../linker/index.js';
import { loadScatterFile } from '../scatter/index.js';
import { detectLayoutFormat, formatName, type LayoutFormat } from './detect.js';
import { icfLayout, icfListing } from './icf.js';
import { scatterImage, scatterLayout, scatterListing } from './scatter.js';
import type { LayoutDescription, RegionListing } from './types.js';

/** The linked ELF, as far as layouts need it (scatter files size regions by their content). */
export interface LayoutImage {
  sections: LayoutSection[];
  segments: LayoutSegment[];
  /** Whether the image defines this global symbol (scatter files' `defined(symbol)`). */
  hasSymbol(name: string): boolean;
  /** ELF header plus program headers. */
  headerSize: number;
}

export interface LayoutOptions {
  /** The configuration files in link order, all in one language. */
  files: string[];
  /** `--def NAME=VALUE`, in order. */
  definitions?: Array<[name: string, value: string]>;
  /** `-L` directories, searched for included files. */
  searchPaths?: string[];
  /** The link's working directory; relative paths resolve here (default process.cwd()). */
  cwd?: string;
  addressBits?: 32 | 64;
  image?: LayoutImage;
}

/** The one language of the files; mixing languages in one link is refused. */
export function layoutFormat(options: LayoutOptions, warnings: string[] = []): LayoutFormat {
  const cwd = options.cwd ?? process.cwd();
  const formats = options.files.map((file) => {
    const path = resolve(cwd, file);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new LayoutError(`linker configuration file not found: ${file}`);
    }
    const detection = detectLayoutFormat(file, readFileSync(path, 'utf8'));
    if (detection.warning) warnings.push(detection.warning);
    return { file, format: detection.format };
  });
  const first = formats[0];
  if (!first) throw new LayoutError('no linker configuration file given');
  const other = formats.find((f) => f.format !== first.format);
  if (other) {
    throw new LayoutError(
      `${first.file} is ${formatName(first.format)} but ${other.file} is ${formatName(other.format)}: one link uses one linker`,
    );
  }
  if (first.format === 'arm-scatter' && formats.length > 1) {
    throw new LayoutError('armlink reads one scatter file: give only one (it may #include others)');
  }
  return first.format;
}

function defsyms(options: LayoutOptions): string[] {
  return (options.definitions ?? []).map(([name, value]) => `${name}=${value}`);
}

function icfModel(options: LayoutOptions) {
  return loadIcfFiles(options.files, {
    cwd: options.cwd,
    searchPaths: options.searchPaths,
    definitions: options.definitions,
  });
}

function scatterModel(options: LayoutOptions) {
  const image = options.image;
  return loadScatterFile(options.files[0]!, {
    cwd: options.cwd,
    searchPaths: options.searchPaths,
    definitions: options.definitions,
    ...(image && {
      image: scatterImage(image.sections, image.segments, image.hasSymbol, image.headerSize),
    }),
  });
}

function gnuLayout(options: LayoutOptions): LayoutDescription {
  const model = loadLinkerScripts({
    cwd: options.cwd,
    searchPaths: options.searchPaths,
    inputs: linkerInputs(options.files, defsyms(options)),
    addressBits: options.addressBits,
  });
  return {
    format: 'gnu-ld',
    regions: model.regions,
    ...(model.placements.length > 0 && {
      assignments: sectionAssignments(model, options.image?.sections ?? []),
    }),
    usage: 'extent',
    warnings: model.warnings.map((w) =>
      w.position ? `${formatPosition(w.position)}: ${w.message}` : w.message,
    ),
    files: model.files,
  };
}

/** Regions, section placement and how to measure usage, from configuration files. */
export function loadLayout(options: LayoutOptions): LayoutDescription {
  const warnings: string[] = [];
  const format = layoutFormat(options, warnings);
  const layout =
    format === 'iar-icf'
      ? icfLayout(icfModel(options), options.image?.sections ?? [])
      : format === 'arm-scatter'
        ? scatterLayout(scatterModel(options))
        : gnuLayout(options);
  return { ...layout, warnings: [...warnings, ...layout.warnings] };
}

/** The rows `memtrail regions` prints, in file order, and what the files made us warn about. */
export function listLayoutRegions(options: LayoutOptions): {
  format: LayoutFormat;
  regions: RegionListing[];
  warnings: string[];
} {
  const warnings: string[] = [];
  const format = layoutFormat(options, warnings);
  if (format === 'iar-icf') {
    const model = icfModel(options);
    return {
      format,
      regions: icfListing(model),
      warnings: [...warnings, ...icfLayout(model, []).warnings],
    };
  }
  if (format === 'arm-scatter') {
    const model = scatterModel(options);
    return {
      format,
      regions: scatterListing(model),
      warnings: [
        ...warnings,
        ...model.warnings.map((w) =>
          w.position ? `${formatPosition(w.position)}: ${w.message}` : w.message,
        ),
      ],
    };
  }
  const regions = listMemoryRegions({
    cwd: options.cwd,
    searchPaths: options.searchPaths,
    scripts: options.files,
    defsyms: defsyms(options),
  });
  return { format, regions, warnings };
}
