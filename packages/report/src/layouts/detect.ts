/**
 * Which linker configuration language a file is in. The content decides when it is clear (a file
 * named .ld that is really an ICF is read as ICF, with a warning); the extension decides otherwise
 * (.icf → IAR, .sct/.scat/.scf → Arm scatter), and GNU ld is the default.
 */

export type LayoutFormat = 'gnu-ld' | 'iar-icf' | 'arm-scatter';

export interface Detection {
  format: LayoutFormat;
  /** Set when the content overrides what the extension suggests. */
  warning?: string;
}

const NAMES: Record<LayoutFormat, string> = {
  'gnu-ld': 'a GNU ld script',
  'iar-icf': 'an IAR ICF file',
  'arm-scatter': 'an Arm scatter file',
};

const GNU = /\b(MEMORY|SECTIONS)\s*\{|\bREGION_ALIAS\s*\(|\bOUTPUT_(ARCH|FORMAT)\s*\(|\bENTRY\s*\(/;
const ICF_MARKERS = [
  /\bdefine\s+(exported\s+)?symbol\b/,
  /\bdefine\s+memory\b/,
  /\bdefine\s+((rom|ram)\s+)?region\b/,
  /\bdefine\s+block\b/,
  /\bplace\s+(in|at)\b/,
  /\binitialize\s+(by|manually)\b/,
  /\bdo\s+not\s+initialize\b/,
];
const PREPROCESSOR_LINE = /^\s*#!\s*\S*arm(cc|clang)\b/;
const SCATTER_REGION = /^\s*[A-Za-z_.][\w.$]*\s+[^\s{;=:][^{;=]*\{/m;
const SCATTER_SELECTOR =
  /\.ANY\d*\b|\(\s*[^)]*\+(RO|RW|ZI|XO|FIRST|LAST)\b|InRoot\$\$Sections|\b(EMPTY|UNINIT|ZEROPAD)\b|\bScatterAssert\s*\(/;

function byExtension(path: string): LayoutFormat | undefined {
  if (/\.icf$/i.test(path)) return 'iar-icf';
  if (/\.(sct|scat|scf)$/i.test(path)) return 'arm-scatter';
  if (/\.(ld|lds|x|ld\.in|lnk|lkr)$/i.test(path)) return 'gnu-ld';
  return undefined;
}

function byContent(text: string): LayoutFormat | undefined {
  if (PREPROCESSOR_LINE.test(text.replace(/^\uFEFF/, ''))) return 'arm-scatter';
  if (GNU.test(text)) return 'gnu-ld';
  const icfMarkers = ICF_MARKERS.filter((marker) => marker.test(text)).length;
  if (icfMarkers >= 2) return 'iar-icf';
  if (SCATTER_REGION.test(text) && SCATTER_SELECTOR.test(text)) return 'arm-scatter';
  return undefined;
}

export function detectLayoutFormat(path: string, text: string): Detection {
  const extension = byExtension(path);
  const content = byContent(text);
  if (content && extension && content !== extension) {
    return {
      format: content,
      warning: `${path}: the name suggests ${NAMES[extension]}, but the content is ${NAMES[content]}; reading it as such`,
    };
  }
  return { format: content ?? extension ?? 'gnu-ld' };
}

export function formatName(format: LayoutFormat): string {
  return NAMES[format];
}
