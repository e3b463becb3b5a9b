#!/usr/bin/env bash
# Posts (or updates) the one Memtrail comment of the pull request and a status per target.
set -euo pipefail
# shellcheck source=action/cli.sh
source "$(dirname "$0")/cli.sh"

args=(--verbose "$INPUT_VERBOSE" comment)
[ -n "$INPUT_COMMIT" ] && args+=("$INPUT_COMMIT")
args+=(--api-url "$INPUT_API_URL" --status "$INPUT_STATUS")
[ -n "$INPUT_PR" ] && args+=(--pr "$INPUT_PR")
[ -n "$INPUT_TEMPLATE" ] && args+=(--template "$INPUT_TEMPLATE")
[ -n "$INPUT_MAX_SYMBOLS" ] && args+=(--max-symbols "$INPUT_MAX_SYMBOLS")
[ -n "$INPUT_COLLAPSE_AFTER" ] && args+=(--collapse-after "$INPUT_COLLAPSE_AFTER")
flag_each --target "$INPUT_TARGETS"
[ "$INPUT_NO_COMMENT" = "true" ] && args+=(--no-comment)
memtrail "${args[@]}"
