/** The servers every integration test needs, by the URLs the services read. */
export interface BaseStores {
  DATABASE_URL: string;
  REDIS_URL: string;
  CLICKHOUSE_URL: string;
}
