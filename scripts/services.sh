#!/usr/bin/env bash
# Installs (Debian packages) and starts PostgreSQL and Redis on 127.0.0.1, and creates the `app`
# role and `app_test` database the test suite uses. Idempotent; needs root (as on CI machines).
set -euo pipefail
if ! command -v redis-server >/dev/null || ! command -v pg_ctlcluster >/dev/null || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null
fi
# promtool, for the metrics test's `promtool check metrics` (docs/metrics.md): the binary alone, out of
# Debian's prometheus package (19 MB; 12 s here), so no Prometheus server is installed or started.
# Optional: without it the test checks the same rules itself.
install_promtool() {
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -qq prometheus >/dev/null 2>&1 &&
    dpkg-deb --fsys-tarfile prometheus_*.deb | tar -x ./usr/bin/promtool &&
    install -m 0755 usr/bin/promtool /usr/local/bin/promtool)
  local status=$?
  rm -rf "$tmp"
  return $status
}
if ! command -v promtool >/dev/null; then
  install_promtool || echo "services: promtool not installed (the metrics test checks its rules itself)"
fi
PGVER=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$PGVER main .* online"; then
  pg_ctlcluster --skip-systemctl-redirect "$PGVER" main start || pg_ctlcluster "$PGVER" main start
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
fi
for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break
  sleep 0.2
done
su postgres -c "psql -v ON_ERROR_STOP=1 -q" <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'app') THEN CREATE ROLE app LOGIN PASSWORD 'app' CREATEDB; END IF;
END $$;
SELECT 'CREATE DATABASE app OWNER app' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'app')\gexec
SELECT 'CREATE DATABASE app_test OWNER app' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'app_test')\gexec
SQL
echo "services: postgres $PGVER $(pg_isready -h 127.0.0.1 | sed 's/.*- //'), redis $(redis-cli -h 127.0.0.1 ping)"
