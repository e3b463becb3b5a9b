/**
 * Names for ELF enumerations, spelled as pyelftools spells them (the compat spec §2.1 reports
 * machine and file type in that form), and the ISA names the report uses for `architecture`.
 */

const MACHINES: Record<number, string> = {
  0: 'EM_NONE',
  1: 'EM_M32',
  2: 'EM_SPARC',
  3: 'EM_386',
  4: 'EM_68K',
  5: 'EM_88K',
  6: 'EM_IAMCU',
  7: 'EM_860',
  8: 'EM_MIPS',
  9: 'EM_S370',
  10: 'EM_MIPS_RS3_LE',
  15: 'EM_PARISC',
  17: 'EM_VPP500',
  18: 'EM_SPARC32PLUS',
  19: 'EM_960',
  20: 'EM_PPC',
  21: 'EM_PPC64',
  22: 'EM_S390',
  23: 'EM_SPU',
  36: 'EM_V800',
  37: 'EM_FR20',
  38: 'EM_RH32',
  39: 'EM_RCE',
  40: 'EM_ARM',
  41: 'EM_ALPHA',
  42: 'EM_SH',
  43: 'EM_SPARCV9',
  44: 'EM_TRICORE',
  45: 'EM_ARC',
  46: 'EM_H8_300',
  47: 'EM_H8_300H',
  48: 'EM_H8S',
  49: 'EM_H8_500',
  50: 'EM_IA_64',
  51: 'EM_MIPS_X',
  52: 'EM_COLDFIRE',
  53: 'EM_68HC12',
  54: 'EM_MMA',
  55: 'EM_PCP',
  56: 'EM_NCPU',
  57: 'EM_NDR1',
  58: 'EM_STARCORE',
  59: 'EM_ME16',
  60: 'EM_ST100',
  61: 'EM_TINYJ',
  62: 'EM_X86_64',
  63: 'EM_PDSP',
  64: 'EM_PDP10',
  65: 'EM_PDP11',
  66: 'EM_FX66',
  67: 'EM_ST9PLUS',
  68: 'EM_ST7',
  69: 'EM_68HC16',
  70: 'EM_68HC11',
  71: 'EM_68HC08',
  72: 'EM_68HC05',
  73: 'EM_SVX',
  74: 'EM_ST19',
  75: 'EM_VAX',
  76: 'EM_CRIS',
  77: 'EM_JAVELIN',
  78: 'EM_FIREPATH',
  79: 'EM_ZSP',
  80: 'EM_MMIX',
  81: 'EM_HUANY',
  82: 'EM_PRISM',
  83: 'EM_AVR',
  84: 'EM_FR30',
  85: 'EM_D10V',
  86: 'EM_D30V',
  87: 'EM_V850',
  88: 'EM_M32R',
  89: 'EM_MN10300',
  90: 'EM_MN10200',
  91: 'EM_PJ',
  92: 'EM_OPENRISC',
  93: 'EM_ARC_COMPACT',
  94: 'EM_XTENSA',
  95: 'EM_VIDEOCORE',
  96: 'EM_TMM_GPP',
  97: 'EM_NS32K',
  98: 'EM_TPC',
  99: 'EM_SNP1K',
  100: 'EM_ST200',
  101: 'EM_IP2K',
  102: 'EM_MAX',
  103: 'EM_CR',
  104: 'EM_F2MC16',
  105: 'EM_MSP430',
  106: 'EM_BLACKFIN',
  107: 'EM_SE_C33',
  108: 'EM_SEP',
  109: 'EM_ARCA',
  110: 'EM_UNICORE',
  111: 'EM_EXCESS',
  112: 'EM_DXP',
  113: 'EM_ALTERA_NIOS2',
  114: 'EM_CRX',
  115: 'EM_XGATE',
  116: 'EM_C166',
  117: 'EM_M16C',
  118: 'EM_DSPIC30F',
  119: 'EM_CE',
  120: 'EM_M32C',
  131: 'EM_TSK3000',
  132: 'EM_RS08',
  133: 'EM_SHARC',
  134: 'EM_ECOG2',
  135: 'EM_SCORE7',
  136: 'EM_DSP24',
  137: 'EM_VIDEOCORE3',
  138: 'EM_LATTICEMICO32',
  139: 'EM_SE_C17',
  140: 'EM_TI_C6000',
  141: 'EM_TI_C2000',
  142: 'EM_TI_C5500',
  143: 'EM_TI_ARP32',
  144: 'EM_TI_PRU',
  160: 'EM_MMDSP_PLUS',
  161: 'EM_CYPRESS_M8C',
  162: 'EM_R32C',
  163: 'EM_TRIMEDIA',
  164: 'EM_QDSP6',
  165: 'EM_8051',
  166: 'EM_STXP7X',
  167: 'EM_NDS32',
  168: 'EM_ECOG1X',
  169: 'EM_MAXQ30',
  170: 'EM_XIMO16',
  171: 'EM_MANIK',
  172: 'EM_CRAYNV2',
  173: 'EM_RX',
  174: 'EM_METAG',
  175: 'EM_MCST_ELBRUS',
  176: 'EM_ECOG16',
  177: 'EM_CR16',
  178: 'EM_ETPU',
  179: 'EM_SLE9X',
  180: 'EM_L10M',
  181: 'EM_K10M',
  183: 'EM_AARCH64',
  185: 'EM_AVR32',
  186: 'EM_STM8',
  187: 'EM_TILE64',
  188: 'EM_TILEPRO',
  189: 'EM_MICROBLAZE',
  190: 'EM_CUDA',
  191: 'EM_TILEGX',
  192: 'EM_CLOUDSHIELD',
  193: 'EM_COREA_1ST',
  194: 'EM_COREA_2ND',
  195: 'EM_ARC_COMPACT2',
  196: 'EM_OPEN8',
  197: 'EM_RL78',
  198: 'EM_VIDEOCORE5',
  199: 'EM_78KOR',
  200: 'EM_56800EX',
  201: 'EM_BA1',
  202: 'EM_BA2',
  203: 'EM_XCORE',
  204: 'EM_MCHP_PIC',
  210: 'EM_KM32',
  211: 'EM_KMX32',
  212: 'EM_KMX16',
  213: 'EM_KMX8',
  214: 'EM_KVARC',
  215: 'EM_CDP',
  216: 'EM_COGE',
  217: 'EM_COOL',
  218: 'EM_NORC',
  219: 'EM_CSR_KALIMBA',
  220: 'EM_Z80',
  221: 'EM_VISIUM',
  222: 'EM_FT32',
  223: 'EM_MOXIE',
  224: 'EM_AMDGPU',
  243: 'EM_RISCV',
  247: 'EM_BPF',
  252: 'EM_CSKY',
  258: 'EM_LOONGARCH',
};

/** ISA names for `architecture`, as listed in the compat spec §2.1; other machines give null. */
const ARCHITECTURES: Record<number, string> = {
  40: 'ARM',
  94: 'Xtensa',
  243: 'RISC-V',
  3: 'x86',
  6: 'x86',
  62: 'x86-64',
  183: 'AArch64',
  8: 'MIPS',
  10: 'MIPS',
  173: 'RX',
  2: 'SPARC',
  18: 'SPARC',
  43: 'SPARC',
  83: 'AVR',
  105: 'MSP430',
  186: 'STM8',
  197: 'RL78',
  20: 'PowerPC',
  21: 'PowerPC',
  45: 'ARC',
  93: 'ARC',
  195: 'ARC',
  189: 'MicroBlaze',
  113: 'Nios II',
  42: 'SuperH',
};

const FILE_TYPES: Record<number, string> = {
  0: 'ET_NONE',
  1: 'ET_REL',
  2: 'ET_EXEC',
  3: 'ET_DYN',
  4: 'ET_CORE',
};

export const EM_ARM = 40;

export function machineName(machine: number): string {
  return MACHINES[machine] ?? `EM_${machine}`;
}

export function architectureName(machine: number): string | null {
  return ARCHITECTURES[machine] ?? null;
}

export function fileTypeName(type: number): string {
  if (FILE_TYPES[type]) return FILE_TYPES[type];
  if (type >= 0xfe00 && type <= 0xfeff) return 'ET_LOOS';
  if (type >= 0xff00) return 'ET_LOPROC';
  return `ET_${type}`;
}

// Symbol enumerations: well-known values lose their prefix (as the report shows them), the rest
// keep pyelftools' raw name, e.g. GNU IFUNC (10) is "STT_LOOS" and GNU_UNIQUE (10) "STB_LOOS".
const SYMBOL_TYPES = [
  'NOTYPE',
  'OBJECT',
  'FUNC',
  'SECTION',
  'FILE',
  'COMMON',
  'TLS',
  'STT_NUM',
  'STT_RELC',
  'STT_SRELC',
  'STT_LOOS',
  'STT_11',
  'STT_HIOS',
  'STT_LOPROC',
  'STT_14',
  'STT_HIPROC',
];
const SYMBOL_BINDINGS = [
  'LOCAL',
  'GLOBAL',
  'WEAK',
  'STB_3',
  'STB_4',
  'STB_5',
  'STB_6',
  'STB_7',
  'STB_8',
  'STB_9',
  'STB_LOOS',
  'STB_11',
  'STB_HIOS',
  'STB_LOPROC',
  'STB_14',
  'STB_HIPROC',
];
const SYMBOL_VISIBILITIES = ['DEFAULT', 'INTERNAL', 'HIDDEN', 'PROTECTED'];

export function symbolTypeName(info: number): string {
  return SYMBOL_TYPES[info & 0xf]!;
}

export function symbolBindingName(info: number): string {
  return SYMBOL_BINDINGS[info >> 4]!;
}

export function symbolVisibilityName(other: number): string {
  return SYMBOL_VISIBILITIES[other & 3]!;
}

const SEGMENT_TYPES: Record<number, string> = {
  0: 'PT_NULL',
  1: 'PT_LOAD',
  2: 'PT_DYNAMIC',
  3: 'PT_INTERP',
  4: 'PT_NOTE',
  5: 'PT_SHLIB',
  6: 'PT_PHDR',
  7: 'PT_TLS',
  0x6474e550: 'PT_GNU_EH_FRAME',
  0x6474e551: 'PT_GNU_STACK',
  0x6474e552: 'PT_GNU_RELRO',
  0x6474e553: 'PT_GNU_PROPERTY',
  0x6474e554: 'PT_GNU_SFRAME',
};

/** Processor-specific segment types (0x70000000…) depend on the machine. */
const PROCESSOR_SEGMENT_TYPES: Record<number, Record<number, string>> = {
  40: { 0x70000000: 'PT_ARM_ARCHEXT', 0x70000001: 'PT_ARM_EXIDX' },
  183: {
    0x70000000: 'PT_AARCH64_ARCHEXT',
    0x70000001: 'PT_AARCH64_UNWIND',
    0x70000002: 'PT_AARCH64_MEMTAG_MTE',
  },
  8: {
    0x70000000: 'PT_MIPS_REGINFO',
    0x70000001: 'PT_MIPS_RTPROC',
    0x70000002: 'PT_MIPS_OPTIONS',
    0x70000003: 'PT_MIPS_ABIFLAGS',
  },
  243: { 0x70000003: 'PT_RISCV_ATTRIBUTES' },
};

export function segmentTypeName(type: number, machine: number): string {
  const name = SEGMENT_TYPES[type] ?? PROCESSOR_SEGMENT_TYPES[machine]?.[type];
  if (name) return name;
  if (type >= 0x70000000 && type <= 0x7fffffff) return 'PT_LOPROC';
  if (type >= 0x60000000 && type <= 0x6fffffff) return 'PT_LOOS';
  return `PT_${type}`;
}

/** R/W/X rendering of segment flags; "---" when none is set. */
export function segmentFlagsString(flags: number): string {
  const s = (flags & 4 ? 'R' : '') + (flags & 2 ? 'W' : '') + (flags & 1 ? 'X' : '');
  return s || '---';
}

const SECTION_TYPES: Record<number, string> = {
  0: 'SHT_NULL',
  1: 'SHT_PROGBITS',
  2: 'SHT_SYMTAB',
  3: 'SHT_STRTAB',
  4: 'SHT_RELA',
  5: 'SHT_HASH',
  6: 'SHT_DYNAMIC',
  7: 'SHT_NOTE',
  8: 'SHT_NOBITS',
  9: 'SHT_REL',
  10: 'SHT_SHLIB',
  11: 'SHT_DYNSYM',
  14: 'SHT_INIT_ARRAY',
  15: 'SHT_FINI_ARRAY',
  16: 'SHT_PREINIT_ARRAY',
  17: 'SHT_GROUP',
  18: 'SHT_SYMTAB_SHNDX',
  0x6ffffff6: 'SHT_GNU_HASH',
  0x6ffffffd: 'SHT_GNU_verdef',
  0x6ffffffe: 'SHT_GNU_verneed',
  0x6fffffff: 'SHT_GNU_versym',
  0x70000001: 'SHT_ARM_EXIDX',
  0x70000003: 'SHT_ARM_ATTRIBUTES',
};

export function sectionTypeName(type: number): string {
  return SECTION_TYPES[type] ?? `SHT_${type.toString(16)}`;
}

export const SHT_SYMTAB = 2;
export const SHT_NOBITS = 8;
export const SHT_DYNSYM = 11;
export const SHT_SYMTAB_SHNDX = 18;
export const SHF_WRITE = 1;
export const SHF_ALLOC = 2;
export const SHF_EXECINSTR = 4;
export const SHF_TLS = 0x400;
export const SHN_UNDEF = 0;
export const SHN_LORESERVE = 0xff00;
export const SHN_ABS = 0xfff1;
export const SHN_COMMON = 0xfff2;
export const SHN_XINDEX = 0xffff;
export const STT_FUNC = 2;
