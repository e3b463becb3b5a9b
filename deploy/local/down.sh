#!/usr/bin/env bash
# `npm run down`: stop the services and the embedded stores started by `npm run up`.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f deploy/local/dist/cli.js ]; then
  echo "Nothing to stop: the local stack was never built"
  exit 0
fi
node deploy/local/dist/cli.js down
