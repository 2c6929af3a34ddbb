#!/usr/bin/env bash
# Every test of the project: types, portal and server suites (PGlite and a PostgreSQL server),
# and the browser journeys in Debian's Chromium against the built product.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the suites need from Debian: Chromium for the journeys, PostgreSQL for the server suite.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${need[*]} from Debian's packages…"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Missing ${need[*]}: install them (apt-get install ${need[*]}) and run again." >&2
    exit 1
  fi
fi

# A real PostgreSQL server for the server suite, unless one is named already.
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  . scripts/postgres.sh
fi

[ -d node_modules ] || npm ci --no-audit --no-fund

echo "== type-check"; npm run --silent type-check
echo "== lint (boundaries, hooks, type-checked rules) and formatting"; npm run --silent lint
npm run --silent format:check
echo "== unit and integration tests (portal, server on PGlite and PostgreSQL)"; npm run --silent test:portal -- --ci
npm run --silent test:server -- --ci
echo "== production build, and its byte budgets (fails when one is missed)"; npm run --silent bench:bytes
echo "== browser journeys (Chromium), against the compiled server as npm start runs it"; npm run --silent build:server
npx playwright test -c e2e/playwright.config.ts
