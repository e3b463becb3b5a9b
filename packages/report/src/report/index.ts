export { generateReport } from './generate.js';
export type { GenerateReportOptions, LayoutBuilder, LayoutRequest } from './generate.js';
export { codeAddress, isReportedSymbol, reportSymbols } from './symbols.js';
