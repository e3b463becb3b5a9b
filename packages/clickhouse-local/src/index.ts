export {
  startClickHouseLocal,
  type ClickHouseLocal,
  type ClickHouseLocalOptions,
} from './server.js';
export { ClickHouseException } from './errors.js';
