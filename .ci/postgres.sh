# Kept for scripts that still source the old path; the real script is scripts/postgres.sh.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/postgres.sh"
