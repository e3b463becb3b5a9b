// @memtrail/report: each part exports from its own folder; this file gathers them.
export {};
export * from './linker/index.js';
