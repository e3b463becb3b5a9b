// How the product writes sizes, on pages and badges alike.

const UNITS = ['B', 'KiB', 'MiB', 'GiB'];

/** Bytes in binary units: 512 B, 12.4 KiB, 1.02 MiB. */
export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${sign}${value.toFixed(digits)} ${UNITS[unit]}`;
}
