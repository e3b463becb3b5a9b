#!/usr/bin/env bash
# `npm test`: sets up like `npm run up` (system packages, npm dependencies, build, local stack),
# then runs every suite — jest (unit and integration against the real Postgres, Redis and
# ClickHouse) and Playwright end-to-end in Chromium — and ends with one pass/fail summary line.
# A stack that was not running before is stopped again at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

bash deploy/local/setup.sh --test || { echo "tests: setup failed"; exit 1; }

was_running=false
curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:${PORT:-5000}/readyz" 2>/dev/null && was_running=true
node deploy/local/dist/cli.js up || { echo "tests: the local stack did not start (see .data/logs/)"; exit 1; }

# The stack's connection URLs (external ones when DATABASE_URL etc. were given).
while IFS='=' read -r key value; do export "$key=$value"; done < <(node deploy/local/dist/cli.js env)

results=tests/test-results
mkdir -p "$results"
rm -f "$results/jest.json" "$results/e2e-report.json"

echo "== jest: unit and integration =="
NODE_OPTIONS=--experimental-vm-modules npx jest --ci --maxWorkers=2 --json --outputFile="$results/jest.json"

echo "== playwright: end-to-end in Chromium =="
E2E_BASE_URL="http://127.0.0.1:${PORT:-5000}" npm run e2e --silent -w @memtrail/tests

node tests/tools/dist/summarize.js "$results/jest.json" "$results/e2e-report.json"
status=$?

if [ "$was_running" = false ]; then npm run down --silent; fi
exit $status
