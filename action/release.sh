#!/usr/bin/env bash
# Releases the actions: bundles the CLI from this commit's sources (rolldown, as `npm pack` does)
# and commits the bundle on top of it, detached from any branch, tagged vX.Y.Z from
# packages/cli/package.json and the moving major tag vX. `uses: <owner>/memtrail@vX` then runs
# exactly that version's CLI, with no registry access and no build at action time.
# Needs a clean checkout with dependencies installed; `--push` pushes both tags to origin.
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "release: $*" >&2; exit 1; }

push=false
[ "${1:-}" = "--push" ] && push=true
version="$(node -p 'require("./packages/cli/package.json").version')"
tag="v$version"
major="v${version%%.*}"

[ -z "$(git status --porcelain --untracked-files=no)" ] || die "the checkout has uncommitted changes"
! git rev-parse -q --verify "refs/tags/$tag" >/dev/null || die "$tag exists: raise the version in packages/cli/package.json first"

(cd packages/cli && npm run --silent bundle) >/dev/null
built="$(node packages/cli/bundle/memtrail.js --version)"
[ "$built" = "$version" ] || die "the bundle reports version $built, expected $version"

source="$(git rev-parse HEAD)"
back="$(git symbolic-ref -q --short HEAD || echo "$source")"
git checkout -q --detach
git add -f packages/cli/bundle
git commit -q -m "Release $tag: the CLI bundled for the actions" -m "Built from $source."
git tag -a "$tag" -m "Memtrail $tag"
git tag -f -a "$major" -m "Memtrail $tag" >/dev/null
git checkout -q "$back"
echo "release: tagged $tag and $major ($(git rev-parse --short "$tag^{commit}")), built from $source"
if [ "$push" = true ]; then git push origin "$tag" && git push -f origin "$major"; fi
