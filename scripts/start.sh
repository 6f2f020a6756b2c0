#!/usr/bin/env bash
# Starts the whole platform on this machine: installs dependencies if missing, makes sure a
# Redis answers at REDIS_URL (starting a local redis-server when none does, installing it with
# apt first where root or passwordless sudo allows, otherwise naming the package) or, with
# REDIS_CLUSTER_NODES set, that the Redis Cluster there says cluster_state:ok (no redis-server is
# started), then runs the simulated providers, the api and the workers under one supervisor
# (Ctrl-C stops them all).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1; then
  echo "start: Node.js 20 is required (node not found)" >&2
  exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "start: Node.js 20 or newer is required (found $(node --version))" >&2
  exit 1
fi

if [ ! -x node_modules/.bin/tsx ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "start: installing dependencies (npm ci)"
  # --include=dev: with NODE_ENV=production (npm run start:prod) npm would otherwise leave out
  # the dev tools the build and `npm test` need, stripping them from a working tree.
  npm ci --no-audit --no-fund --include=dev
fi

if [ "${NODE_ENV:-}" = production ]; then
  echo "start: NODE_ENV=production: building (npm run build), the apps run with plain node from dist/"
  npm run build --silent
fi

exec node --import tsx scripts/run-platform.ts "$@"
