#!/usr/bin/env bash
# Installs the Medusa engine the server suite's Medusa tests run (engines/medusa, docs/medusa.md):
# `npm ci` there only when its node_modules is missing or was installed from another lockfile.
# Cheap when cached (a hash and a compare); the first install takes minutes.
set -euo pipefail
cd "$(dirname "$0")/../engines/medusa"

lock_hash=$(sha256sum package-lock.json | cut -c1-16)
stamp=node_modules/.rebound-lock-hash
if [ -d node_modules ] && [ "$(cat "$stamp" 2>/dev/null)" = "$lock_hash" ]; then
  exit 0
fi
echo "Installing the Medusa engine (engines/medusa, lockfile ${lock_hash}): a few minutes the first time…"
started=$SECONDS
rm -rf node_modules
npm ci --no-audit --no-fund --loglevel=error
echo "$lock_hash" >"$stamp"
echo "Medusa engine installed in $((SECONDS - started)) s"
