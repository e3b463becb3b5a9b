export {
  startEmbeddedClickHouse,
  type EmbeddedClickHouse,
  type EmbeddedClickHouseOptions,
} from './server.js';
export { ClickHouseException } from './errors.js';
