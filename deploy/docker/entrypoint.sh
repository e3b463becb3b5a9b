#!/bin/sh
# The one way a Memtrail process starts, in the container images and in the local stack
# (deploy/local/src/services.ts runs this same script), so the images' commands are exercised
# by every `npm run up` and every CI run.
#
#   entrypoint.sh gateway | query | ingest-worker   run a service in the foreground
#   entrypoint.sh migrate                           apply Postgres, then ClickHouse migrations
#   entrypoint.sh reingest [--project <id>]         copy stored symbol blocks to ClickHouse again
#
# Migrations never run from a service's start-up: `migrate` is a one-shot job (compose service,
# Kubernetes Job, `npm run migrate`). Both migrators take a lock, so concurrent runs are safe.
set -eu

root=${MEMTRAIL_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
command=${1:-}
[ $# -gt 0 ] && shift

case "$command" in
  gateway | query | ingest-worker)
    main="$root/services/$command/dist/main.js"
    [ -f "$main" ] || { echo "entrypoint: $main is missing (build first)" >&2; exit 2; }
    # Left to itself, V8 keeps the gateway's heap limit a few MB above its ~50 MB of live
    # objects, and marks the whole heap again every few uploads: about 10 ms of CPU per upload
    # (docs/benchmarks.md). A 128 MB initial heap lets the garbage of many uploads go first.
    heap=''
    [ "$command" = gateway ] && heap='--initial-heap-size=128'
    exec node --enable-source-maps $heap "$main" "$@"
    ;;
  migrate)
    node "$root/packages/db/dist/cli/migrate.js"
    # single: packages/clickhouse/migrations; cluster: their Replicated + Distributed form
    # (docs/operations.md, "ClickHouse at scale").
    case "${CLICKHOUSE_TOPOLOGY:-single}" in
      single | cluster) ;;
      *) echo "entrypoint: CLICKHOUSE_TOPOLOGY must be single or cluster, got '$CLICKHOUSE_TOPOLOGY'" >&2; exit 2 ;;
    esac
    exec node "$root/packages/clickhouse/dist/cli/migrate.js"
    ;;
  reingest)
    exec node "$root/packages/db/dist/cli/reingest.js" "$@"
    ;;
  *)
    echo "usage: entrypoint.sh gateway|query|ingest-worker|migrate|reingest" >&2
    exit 2
    ;;
esac
