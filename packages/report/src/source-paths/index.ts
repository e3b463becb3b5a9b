/** Source paths relative to the repository: the build folder found per report, or given. */
export { buildRoot, relativeSource } from './build-root.js';
