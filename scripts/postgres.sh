# Sourced: starts Debian's PostgreSQL cluster on loopback and exports TEST_DATABASE_URL.
pg_version=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | grep -q online; then
  pg_lsclusters -h | grep -q . || pg_createcluster "$pg_version" main >/dev/null
  pg_ctlcluster "$pg_version" main start
fi
su postgres -c "psql -q -c \"DO \\\$\\\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='rebound') THEN CREATE ROLE rebound LOGIN SUPERUSER PASSWORD 'rebound'; END IF; END \\\$\\\$;\""
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_database WHERE datname='rebound_test'\" | grep -q 1 || createdb -O rebound rebound_test"
port=$(pg_lsclusters -h | awk 'NR==1{print $3}')
export TEST_DATABASE_URL="postgres://rebound:rebound@127.0.0.1:${port}/rebound_test"
echo "PostgreSQL ${pg_version} ready at 127.0.0.1:${port}"
