import { describe, expect, it } from '@jest/globals';
import { buildRoot, relativeSource } from '../src/source-paths/index.js';

describe('build root of a report', () => {
  it('is the checkout folder common to the project paths, leaving toolchain paths out', () => {
    const paths = [
      '/home/ci/work/chibios/os/rt/src/chthreads.c',
      '/home/ci/work/chibios/os/hal/src/hal_serial.c',
      '/home/ci/work/chibios/demos/STM32/RT-STM32F407-DISCOVERY/main.c',
      '/usr/lib/gcc/arm-none-eabi/12.2.1/include/stdint.h',
      '/build/newlib-CVVEyx/newlib-3.3.0/newlib/libc/string/memcpy.c',
      '',
      'startup.s',
    ];
    expect(buildRoot(paths)).toBe('/home/ci/work/chibios/');
    expect(paths.map((p) => relativeSource(p, buildRoot(paths)))).toEqual([
      'os/rt/src/chthreads.c',
      'os/hal/src/hal_serial.c',
      'demos/STM32/RT-STM32F407-DISCOVERY/main.c',
      '/usr/lib/gcc/arm-none-eabi/12.2.1/include/stdint.h',
      '/build/newlib-CVVEyx/newlib-3.3.0/newlib/libc/string/memcpy.c',
      '',
      'startup.s',
    ]);
  });

  it('keeps the usual source folders in the paths: the checkout lies above them', () => {
    const kernel = ['/w/r7/chibios/os/rt/src/chthreads.c', '/w/r7/chibios/os/hal/src/hal.c'];
    expect(buildRoot([...kernel, 'main.c'])).toBe('/w/r7/chibios/');
    expect(buildRoot(['/ci/fw/src/app/main.c', '/ci/fw/src/app/uart.c'])).toBe('/ci/fw/');
    expect(buildRoot(['/ci/myfw/a/x.c', '/ci/myfw/b/y.c'])).toBe('/ci/myfw/');
  });

  it('stops at a folder boundary, and is empty for relative paths or a bare root', () => {
    expect(buildRoot(['/src/fw/os/a.c', '/src/fw/ox/b.c'])).toBe('/src/fw/');
    expect(buildRoot(['/src/fw/main.c'])).toBe('/src/fw/');
    expect(buildRoot(['/a.c', '/b.c'])).toBe('');
    expect(buildRoot(['src/main.c', '../lib/x.c'])).toBe('');
    expect(buildRoot([])).toBe('');
  });

  it('handles Windows paths and roots given with either separator', () => {
    const paths = ['C:\\work\\fw\\src\\main.c', 'C:\\work\\fw\\lib\\hal.c'];
    expect(buildRoot(paths)).toBe('C:\\work\\fw\\');
    expect(relativeSource(paths[0]!, 'C:/work/fw')).toBe('src\\main.c');
    expect(relativeSource('/home/ci/fw/src/a.c', '/home/ci/fw')).toBe('src/a.c');
    expect(relativeSource('/home/ci/fw2/src/a.c', '/home/ci/fw')).toBe('/home/ci/fw2/src/a.c');
  });
});
