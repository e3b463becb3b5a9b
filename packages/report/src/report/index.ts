export { elfLayoutImage, generateReport } from './generate.js';
export type { GenerateReportOptions, GeneratedReport } from './generate.js';
export { codeAddress, isReportedSymbol, reportSymbols } from './symbols.js';
