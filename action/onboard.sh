#!/usr/bin/env bash
# Onboards a target's history: the last N commits, an explicit list, or a binary search for the
# commit where a region jumped. Resumes where a cancelled run stopped (the server knows what it has).
set -euo pipefail
# shellcheck source=action/cli.sh
source "$(dirname "$0")/cli.sh"

# Onboarding walks history: a shallow clone has none.
if [ "$(git rev-parse --is-shallow-repository)" = "true" ]; then git fetch --quiet --unshallow; fi

args=(--verbose "$INPUT_VERBOSE" onboard)
[ -n "$INPUT_NUM" ] && args+=("$INPUT_NUM")
args+=(--build "$INPUT_BUILD" --elf "$INPUT_ELF" --target-name "$INPUT_TARGET" --api-url "$INPUT_API_URL")
args+=(--submodules "$INPUT_SUBMODULES")
flag_each --ld "$INPUT_LD"
analysis_args
flag_each --build-dirs "$INPUT_BUILD_DIRS"
[ -n "$INPUT_COMMITS" ] && args+=(--commits "$INPUT_COMMITS")
[ -n "$INPUT_INITIAL_COMMIT" ] && args+=(--initial-commit "$INPUT_INITIAL_COMMIT")
[ -n "$INPUT_INITIAL_PARENT" ] && args+=(--initial-parent "$INPUT_INITIAL_PARENT")
[ "$INPUT_BINARY_SEARCH" = "true" ] && args+=(--binary-search)
memtrail "${args[@]}"
