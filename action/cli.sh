# Sourced by the action's steps: `memtrail` runs the CLI bundled into this very checkout of the
# action, so the action's version and the CLI's are the same. Release tags carry the bundle
# (action/release.sh builds and commits it); other refs have none and fail here, clearly.
action_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MEMTRAIL_CLI="$action_root/packages/cli/bundle/memtrail.js"
if [ ! -f "$MEMTRAIL_CLI" ]; then
  echo "::error title=Memtrail::This ref of the action has no bundled CLI ($MEMTRAIL_CLI). Use a release tag (uses: <owner>/memtrail@v1 or @vX.Y.Z), or run 'npm ci && npm run bundle -w packages/cli' in the action's checkout first."
  exit 1
fi
memtrail() { node "$MEMTRAIL_CLI" "$@"; }

# Space-separated inputs as words (paths with spaces need the CLI itself).
read_words() { read -r -a "$1" <<<"${2:-}"; }

# `flag_each FLAG WORDS`: appends FLAG WORD to the `args` array for each space-separated word.
flag_each() {
  local words word
  read_words words "${2:-}"
  for word in ${words[@]+"${words[@]}"}; do args+=("$1" "$word"); done
}

# The analysis inputs that uploading and onboarding share.
analysis_args() {
  flag_each -L "$INPUT_LIB_PATHS"
  flag_each --def "$INPUT_VARS"
  flag_each --skip-section "$INPUT_SKIP"
  if [ -n "$INPUT_MAP" ]; then args+=(--map-file "$INPUT_MAP"); fi
  if [ -n "$INPUT_LIMITS" ]; then args+=(--limits "$INPUT_LIMITS"); fi
}
