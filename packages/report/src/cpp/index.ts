export {
  parsePreprocessorLine,
  predefinedMacros,
  type PreprocessorCommand,
} from './command-line.js';
export { PreprocessError, type PreprocessWarning } from './errors.js';
export {
  preprocess,
  type OutputLine,
  type PreprocessOptions,
  type PreprocessResult,
} from './preprocess.js';
