#!/usr/bin/env bash
# Installs what the local stack needs and builds the workspace. Safe to run again: each step is
# skipped when its result is already there.
#   --test   also installs what the test suites need (Chromium, the Arm cross compiler)
set -euo pipefail
cd "$(dirname "$0")/../.."

with_test=false
[ "${1:-}" = "--test" ] && with_test=true

need=()
if [ -z "${DATABASE_URL:-}" ] && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then need+=(postgresql); fi
if [ -z "${REDIS_URL:-}" ] && ! command -v redis-server >/dev/null; then need+=(redis-server); fi
if $with_test; then
  command -v chromium >/dev/null || need+=(chromium)
  command -v arm-none-eabi-gcc >/dev/null || need+=(gcc-arm-none-eabi binutils-arm-none-eabi libnewlib-arm-none-eabi)
  command -v riscv64-unknown-elf-gcc >/dev/null || need+=(gcc-riscv64-unknown-elf)
  command -v ld.lld >/dev/null || need+=(lld)
fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing system packages: ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # Debian starts its own PostgreSQL and Redis on the default ports; the stack runs its own copies.
fi

# npm install (not ci) updates node_modules in place after a pull; the lockfile holds every
# platform's binaries (.ci/check-lockfile.mjs), so this never rewrites it.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies"
  npm install --no-audit --no-fund --loglevel=error
fi

echo "Building"
npm run build --silent
