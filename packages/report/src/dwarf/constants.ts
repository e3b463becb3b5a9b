/** DWARF 2–5 constants used by the decoder (DWARF 5 standard, §7), plus the GNU extensions GCC emits. */

export const DW_TAG = {
  compile_unit: 0x11,
  partial_unit: 0x3c,
  skeleton_unit: 0x4a,
  subprogram: 0x2e,
  variable: 0x34,
} as const;

export const DW_AT = {
  location: 0x02,
  name: 0x03,
  stmt_list: 0x10,
  low_pc: 0x11,
  comp_dir: 0x1b,
  abstract_origin: 0x31,
  decl_file: 0x3a,
  decl_line: 0x3b,
  specification: 0x47,
  ranges: 0x55,
  linkage_name: 0x6e,
  str_offsets_base: 0x72,
  addr_base: 0x73,
  rnglists_base: 0x74,
  MIPS_linkage_name: 0x2007,
  GNU_ranges_base: 0x2132,
  GNU_addr_base: 0x2133,
} as const;

export const DW_FORM = {
  addr: 0x01,
  block2: 0x03,
  block4: 0x04,
  data2: 0x05,
  data4: 0x06,
  data8: 0x07,
  string: 0x08,
  block: 0x09,
  block1: 0x0a,
  data1: 0x0b,
  flag: 0x0c,
  sdata: 0x0d,
  strp: 0x0e,
  udata: 0x0f,
  ref_addr: 0x10,
  ref1: 0x11,
  ref2: 0x12,
  ref4: 0x13,
  ref8: 0x14,
  ref_udata: 0x15,
  indirect: 0x16,
  sec_offset: 0x17,
  exprloc: 0x18,
  flag_present: 0x19,
  strx: 0x1a,
  addrx: 0x1b,
  ref_sup4: 0x1c,
  strp_sup: 0x1d,
  data16: 0x1e,
  line_strp: 0x1f,
  ref_sig8: 0x20,
  implicit_const: 0x21,
  loclistx: 0x22,
  rnglistx: 0x23,
  ref_sup8: 0x24,
  strx1: 0x25,
  strx2: 0x26,
  strx3: 0x27,
  strx4: 0x28,
  addrx1: 0x29,
  addrx2: 0x2a,
  addrx3: 0x2b,
  addrx4: 0x2c,
  GNU_addr_index: 0x1f01,
  GNU_str_index: 0x1f02,
  GNU_ref_alt: 0x1f20,
  GNU_strp_alt: 0x1f21,
} as const;

export const DW_OP_addr = 0x03;
export const DW_OP_addrx = 0xa1;
export const DW_OP_GNU_addr_index = 0xfb;

export const DW_LNCT_path = 1;
export const DW_LNCT_directory_index = 2;
