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

# The Medusa engine of the server suite (docs/medusa.md) installs in the background while the
# checks and the portal's suite run: minutes from the registry the first time, a compare after.
medusa_log=$(mktemp)
bash scripts/medusa.sh >"$medusa_log" 2>&1 &
medusa_install=$!

echo "== type-check (${SECONDS} s in)"; npm run --silent type-check
echo "== lint (boundaries, hooks, type-checked rules) and formatting (${SECONDS} s in)"; npm run --silent lint
npm run --silent format:check
# One Jest worker per core, and at least two: Jest's default leaves a core idle, and the server
# suites spend most of their time waiting on processes, sockets and databases (on 2 cores this
# takes the server suites from about 9 to under 6 minutes).
workers=$(nproc 2>/dev/null || echo 2)
[ "$workers" -ge 2 ] || workers=2
echo "== unit and integration tests (portal, server on PGlite and PostgreSQL), $workers workers (${SECONDS} s in)"
npm run --silent test:portal -- --ci --maxWorkers="$workers"
if ! wait "$medusa_install"; then
  cat "$medusa_log" >&2
  echo "The Medusa engine could not be installed (engines/medusa)." >&2
  exit 1
fi
cat "$medusa_log"
npm run --silent test:server -- --ci --maxWorkers="$workers"
echo "== production build, and its byte budgets (fails when one is missed) (${SECONDS} s in)"; npm run --silent bench:bytes
echo "== browser journeys (Chromium), against the compiled server as npm start runs it (${SECONDS} s in)"; npm run --silent build:server
npx playwright test -c e2e/playwright.config.ts
echo "== every test passed in ${SECONDS} s"
