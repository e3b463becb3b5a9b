// @memtrail/report: each part exports from its own folder; this file gathers them.
export {};
export * from './linker/index.js';
export * from './elf/index.js';
export * from './dwarf/index.js';
export * from './report/index.js';
export * from './layout/index.js';
export * from './demangle/index.js';
export * from './mapfile/index.js';
export * from './diff/index.js';
export * from './source-paths/index.js';
export * from './layouts/index.js';
