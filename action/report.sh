#!/usr/bin/env bash
# Analyses the ELF and uploads the report (or an identical/metadata-only one); the raw response
# goes to a file named in the step output `report_path`, the result line to the job summary.
set -euo pipefail
# shellcheck source=action/cli.sh
source "$(dirname "$0")/cli.sh"

args=(--verbose "$INPUT_VERBOSE" report)
if [ "$INPUT_IDENTICAL" = "true" ]; then
  args+=(--identical)
else
  [ -n "$INPUT_ELF" ] || { echo "::error title=Memtrail::the elf input is required (or identical: true)"; exit 1; }
  read_words scripts "$INPUT_LD"
  args+=("$INPUT_ELF" ${scripts[@]+"${scripts[@]}"})
fi
args+=(--upload --target-name "$INPUT_TARGET" --api-url "$INPUT_API_URL" --output-raw-response)
analysis_args
[ "$INPUT_NO_FAIL" = "true" ] && args+=(--dont-fail-on-alerts)
[ -n "$INPUT_PR_AUTHOR_NAME" ] && args+=(--pr-author-name "$INPUT_PR_AUTHOR_NAME")
[ -n "$INPUT_PR_AUTHOR_EMAIL" ] && args+=(--pr-author-email "$INPUT_PR_AUTHOR_EMAIL")
out="$RUNNER_TEMP/memtrail_${INPUT_TARGET//[^A-Za-z0-9_.-]/_}.json"
echo "report_path=$out" >>"$GITHUB_OUTPUT"
memtrail "${args[@]}" >"$out"
