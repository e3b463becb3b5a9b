import { TextDecoder, TextEncoder } from 'node:util';

// jsdom has no TextEncoder, which react-router uses as it loads: import this module first.
Object.assign(globalThis, { TextEncoder, TextDecoder });
