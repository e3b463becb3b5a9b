/**
 * Ports of the embedded stack. Postgres, Redis and ClickHouse use uncommon ports so that the stack
 * does not collide with servers a developer already runs; the gateway uses the product's 5000.
 */
function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new Error(`${name} must be a port number, got ${JSON.stringify(raw)}`);
  }
  return value;
}

export const stackPorts = {
  postgres: port('LOCAL_POSTGRES_PORT', 54329),
  redis: port('LOCAL_REDIS_PORT', 63790),
  clickhouse: port('LOCAL_CLICKHOUSE_PORT', 18123),
  mailSmtp: port('LOCAL_MAIL_SMTP_PORT', 11025),
  mailWeb: port('LOCAL_MAIL_WEB_PORT', 11080),
  gateway: port('PORT', 5000),
  query: port('QUERY_PORT', 5001),
};
