#!/usr/bin/env bash
# Tells the next step whether Node.js 20+ must be installed: self-hosted and on-premises runners
# often have it (and no access to download it), hosted runners get it from actions/setup-node.
set -euo pipefail
if command -v node >/dev/null 2>&1 &&
  node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
  echo "setup=false" >>"$GITHUB_OUTPUT"
else
  echo "setup=true" >>"$GITHUB_OUTPUT"
fi
