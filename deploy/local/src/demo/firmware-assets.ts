/**
 * The bulk of a real sensor node's image that no commit of the demo touches: a radio
 * co-processor's firmware, CA certificates, cipher tables, fonts, icons and sensor drivers.
 * Their bytes are pseudo-random but stable, so every machine builds the same firmware.
 */

/** xorshift32 bytes seeded by `name`: the same table gets the same contents everywhere. */
function bytesOf(name: string, count: number): number[] {
  let state = 0x9e3779b9;
  for (const char of name) state = Math.imul(state ^ char.charCodeAt(0), 0x01000193) >>> 0;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    out.push(state & 0xff);
  }
  return out;
}

/** A C initializer list of `count` bytes, 24 to a line so the sources stay readable. */
export function byteList(name: string, count: number): string {
  const bytes = bytesOf(name, count).map((byte) => `0x${byte.toString(16).padStart(2, '0')}`);
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 24) lines.push(`  ${bytes.slice(i, i + 24).join(',')}`);
  return `{\n${lines.join(',\n')}\n}`;
}

/** A C initializer list of 32-bit words, for the cipher's lookup tables. */
function wordList(name: string, count: number): string {
  const bytes = bytesOf(name, count * 4);
  const words = Array.from({ length: count }, (_, i) => {
    const word = bytes.slice(i * 4, i * 4 + 4).reduce((acc, byte) => acc * 256 + byte, 0);
    return `0x${word.toString(16).padStart(8, '0')}u`;
  });
  const lines: string[] = [];
  for (let i = 0; i < words.length; i += 8) lines.push(`  ${words.slice(i, i + 8).join(',')}`);
  return `{\n${lines.join(',\n')}\n}`;
}

/** Bytes of the radio co-processor's firmware image, streamed to it at boot. */
export const RADIO_FIRMWARE_BYTES = 56 * 1024;
/** Bytes of the DER root certificates the TLS client trusts. */
export const CA_BUNDLE_BYTES = 12 * 1024;

/** Fonts as [glyphs, bytes per glyph]: 6×8, 12×16 and 16×24 ASCII, 24×32 digits. */
const FONTS: Record<string, [number, number]> = {
  font_6x8: [96, 6],
  font_12x16: [96, 24],
  font_16x24: [96, 48],
  font_24x32_digits: [16, 96],
};
/** 48×48 monochrome status icons (battery, signal, alarms …). */
const ICONS = 24;
const ICON_BYTES = (48 * 48) / 8;

/** Sensors on the board's I²C bus; each has a driver with its own register map. */
const SENSOR_CHIPS = ['bme280', 'sht40', 'lis3dh', 'scd41', 'veml7700', 'ina219'] as const;

function driverSource(chip: string, index: number): string {
  const address = 0x18 + index * 5;
  const init = bytesOf(`${chip}-init`, 64);
  const modes = bytesOf(`${chip}-modes`, 48 * 6);
  const cases = Array.from({ length: 48 }, (_, mode) => {
    const [r1, v1, r2, v2, r3, v3] = modes.slice(mode * 6, mode * 6 + 6);
    return `  case ${mode}: i2c_write(${address}, ${r1}, ${v1} ^ level); i2c_write(${address}, ${r2}, ${v2} + level); i2c_write(${address}, ${r3}, ${v3}); return ${mode * 3 + index};`;
  });
  return `#include "sensor_driver.h"
static const unsigned char init_sequence[][2] = {${Array.from({ length: 32 }, (_, i) => `{${init[i * 2]},${init[i * 2 + 1]}}`).join(',')}};
static int ${chip}_init(void) {
  for (unsigned i = 0; i < sizeof init_sequence / sizeof init_sequence[0]; i++)
    i2c_write(${address}, init_sequence[i][0], init_sequence[i][1]);
  return i2c_read(${address}, 0xd0) == ${init[0]};
}
static int ${chip}_configure(int mode, int level) {
  switch (mode) {
${cases.join('\n')}
  default: return -1;
  }
}
static int ${chip}_read(int *out) {
  int raw = (i2c_read(${address}, 0xf7) << 12) | (i2c_read(${address}, 0xf8) << 4) | (i2c_read(${address}, 0xf9) >> 4);
  int comp = ((raw >> 3) - (${init[1]} << 1)) * ${(init[2] ?? 0) + 1} >> 11;
  *out = (comp * 5 + 128) >> 8;
  return raw != 0;
}
const struct sensor_driver ${chip}_driver = {"${chip}", ${chip}_init, ${chip}_configure, ${chip}_read};
`;
}

/** Sources that stay the same in every commit of the demo, by path. */
export function fixedSources(): Record<string, string> {
  const fonts = Object.entries(FONTS)
    .map(
      ([name, [glyphs, size]]) =>
        `const unsigned char ${name}[${glyphs * size}] = ${byteList(name, glyphs * size)};`,
    )
    .join('\n');
  const drivers = Object.fromEntries(
    SENSOR_CHIPS.map((chip, index) => [`src/sensors/${chip}.c`, driverSource(chip, index)]),
  );
  return {
    'src/sensors/sensor_driver.h': `struct sensor_driver {
  const char *name;
  int (*init)(void);
  int (*configure)(int mode, int level);
  int (*read)(int *out);
};
#define I2C_DR (*(volatile unsigned *)0x40005410)
static inline void i2c_write(int address, int reg, int value) { I2C_DR = (unsigned)((address << 16) | (reg << 8) | (value & 0xff)); }
static inline int i2c_read(int address, int reg) { I2C_DR = (unsigned)((address << 16) | (reg << 8) | 0x100); return (int)I2C_DR; }
`,
    ...drivers,
    'src/sensors/sensors.c': `#include "sensor_driver.h"
${SENSOR_CHIPS.map((chip) => `extern const struct sensor_driver ${chip}_driver;`).join('\n')}
static const struct sensor_driver *const drivers[] = {${SENSOR_CHIPS.map((chip) => `&${chip}_driver`).join(', ')}};
int sensors_poll(int tick) {
  int sum = 0, value = 0;
  for (unsigned i = 0; i < sizeof drivers / sizeof drivers[0]; i++) {
    if (tick == 0) sum += drivers[i]->init();
    sum += drivers[i]->configure(tick % 49, tick & 7) + drivers[i]->read(&value) + value;
  }
  return sum;
}
`,
    'src/ui/fonts.c': `${fonts}\n`,
    'src/ui/icons.c': `const unsigned char icons[${ICONS}][${ICON_BYTES}] = {\n${Array.from({ length: ICONS }, (_, i) => byteList(`icon-${i}`, ICON_BYTES)).join(',\n')}\n};\n`,
    'src/ui/display.c': `extern const unsigned char font_6x8[], font_12x16[], font_16x24[], font_24x32_digits[];
extern const unsigned char icons[${ICONS}][${ICON_BYTES}];
static unsigned char framebuffer[128 * 64 / 8];
static void blit(const unsigned char *glyph, int bytes, int at) {
  for (int i = 0; i < bytes; i++) framebuffer[(at + i) & 1023] |= glyph[i];
}
int display_draw(int value) {
  blit(&font_24x32_digits[(value & 15) * 96], 96, 0);
  blit(&font_16x24[((value >> 4) % 96) * 48], 48, 128);
  blit(&font_12x16[((value >> 8) % 96) * 24], 24, 256);
  blit(&font_6x8[((value >> 12) % 96) * 6], 6, 384);
  blit(icons[(value >> 16) % ${ICONS}], ${ICON_BYTES}, 512);
  return framebuffer[value & 1023];
}
`,
    'lib/crypto/aes.c': `static const unsigned char sbox[256] = ${byteList('aes-sbox', 256)};
static const unsigned char inv_sbox[256] = ${byteList('aes-inv-sbox', 256)};
static const unsigned te[4][256] = {${[0, 1, 2, 3].map((i) => wordList(`aes-te${i}`, 256)).join(',\n')}};
static const unsigned td[4][256] = {${[0, 1, 2, 3].map((i) => wordList(`aes-td${i}`, 256)).join(',\n')}};
void aes_block(const unsigned char *in, unsigned char *out, int decrypt) {
  const unsigned (*t)[256] = decrypt ? td : te;
  const unsigned char *s = decrypt ? inv_sbox : sbox;
  unsigned state = 0;
  for (int round = 0; round < 10; round++)
    for (int i = 0; i < 16; i++) state = t[i & 3][(in[i] ^ state) & 255] ^ (state >> 8);
  for (int i = 0; i < 16; i++) out[i] = s[(state >> (i & 24)) & 255] ^ in[i];
}
`,
    'lib/tls/ca_bundle.c': `const unsigned char ca_bundle[${CA_BUNDLE_BYTES}] = ${byteList('ca-bundle', CA_BUNDLE_BYTES)};\n`,
    'lib/radio/radio_fw.c': `static const unsigned char radio_fw[${RADIO_FIRMWARE_BYTES}] = ${byteList('radio-fw', RADIO_FIRMWARE_BYTES)};
#define SPI_DR (*(volatile unsigned *)0x4001300c)
int radio_boot(void) {
  unsigned sum = 0;
  for (unsigned i = 0; i < sizeof radio_fw; i++) { SPI_DR = radio_fw[i]; sum += radio_fw[i]; }
  return (int)sum;
}
`,
  };
}
