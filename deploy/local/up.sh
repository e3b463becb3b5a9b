#!/usr/bin/env bash
# `npm run up`: install what is missing, build, start the stores (or use DATABASE_URL, REDIS_URL,
# CLICKHOUSE_URL when set), migrate, and start every service.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash deploy/local/setup.sh
node deploy/local/dist/cli.js up "$@"
