/**
 * Linker scripts of the RTOS board. The STM32F407 one declares 24 regions as the vendor's port
 * does: the main flash and RAM, zero-length placeholders for banks the chip lacks (flash1-7,
 * ram3, ram6, ram7, external memories), regions that overlap (RAM banks inside the whole SRAM,
 * a stack area inside the CCM) and system memories. Its main regions were renamed half-way
 * through the history (`flash` → `flash0`, `ram` → `ram0`).
 */

interface Region {
  name: string;
  attributes: string;
  origin: number;
  length: number;
}

const K = 1024;

/** The STM32F407's regions; `flash` and `ram` are the names before the rename. */
export function stm32Regions(renamed: boolean): Region[] {
  const flash = renamed ? 'flash0' : 'flash';
  const ram = renamed ? 'ram0' : 'ram';
  const placeholder = (name: string, attributes: string): Region => ({
    name,
    attributes,
    origin: 0,
    length: 0,
  });
  return [
    { name: flash, attributes: 'rx', origin: 0x0800_0000, length: 1024 * K },
    ...[1, 2, 3, 4, 5, 6, 7].map((n) => placeholder(`flash${n}`, 'rx')),
    { name: ram, attributes: 'wx', origin: 0x2000_0000, length: 128 * K },
    { name: 'ram1', attributes: 'wx', origin: 0x2000_0000, length: 112 * K },
    { name: 'ram2', attributes: 'wx', origin: 0x2001_c000, length: 16 * K },
    placeholder('ram3', 'wx'),
    { name: 'ram4', attributes: 'wx', origin: 0x1000_0000, length: 64 * K },
    { name: 'ram5', attributes: 'wx', origin: 0x4002_4000, length: 4 * K },
    placeholder('ram6', 'wx'),
    placeholder('ram7', 'wx'),
    { name: 'sysmem', attributes: 'rx', origin: 0x1fff_0000, length: 30 * K },
    { name: 'otp', attributes: 'r', origin: 0x1fff_7800, length: 528 },
    { name: 'optbytes', attributes: 'r', origin: 0x1fff_c000, length: 16 },
    { name: 'eth_ram', attributes: 'wx', origin: 0x2001_c000, length: 16 * K },
    { name: 'ccm_stack', attributes: 'wx', origin: 0x1000_f000, length: 4 * K },
    placeholder('ext_flash', 'rx'),
    placeholder('sdram', 'wx'),
    placeholder('usb_fifo', 'wx'),
  ];
}

/** The CH32V307 (RISC-V, RV32IMAC) port's regions. */
export const RISCV_REGIONS: Region[] = [
  { name: 'flash', attributes: 'rx', origin: 0x0000_0000, length: 256 * K },
  { name: 'ram', attributes: 'wx', origin: 0x2000_0000, length: 64 * K },
  { name: 'bootloader', attributes: 'rx', origin: 0x1fff_8000, length: 0 },
];

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;

/** A GNU ld script placing the board's sections into `regions` (main flash and RAM first). */
export function boardLinkerScript(regions: Region[]): string {
  const [flash, ram] = [regions[0]!.name, regions.find((r) => r.attributes === 'wx')!.name];
  const has = (name: string) => regions.some((r) => r.name === name && r.length > 0);
  const memory = regions
    .map((r) => `  ${r.name} (${r.attributes}) : ORIGIN = ${hex(r.origin)}, LENGTH = ${r.length}`)
    .join('\n');
  const own = (section: string, input: string, region: string) =>
    has(region) ? `  ${section} (NOLOAD) : { *(${input} ${input}.*) } > ${region}\n` : '';
  return `MEMORY
{
${memory}
}
ENTRY(Reset_Handler)
SECTIONS
{
  .vectors : { KEEP(*(.vectors)) } > ${flash}
  .text : { *(.text .text.*) KEEP(*(.text.bulk_*)) . = ALIGN(4); } > ${flash}
  .rodata : { *(.rodata .rodata.*) KEEP(*(.rodata.bulk_*)) . = ALIGN(4); } > ${flash}
  .data : { *(.data .data.*) . = ALIGN(4); } > ${ram} AT > ${flash}
  .bss (NOLOAD) : { *(.bss .bss.*) *(COMMON) . = ALIGN(8); } > ${ram}
${own('.ram4', '.ram4', 'ram4')}${own('.bkpsram', '.bkpsram', 'ram5')}${own('.eth', '.eth', 'eth_ram')}  /DISCARD/ : { *(.ARM.exidx*) *(.riscv.attributes) }
}
`;
}
