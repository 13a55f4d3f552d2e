#!/usr/bin/env bash
# The fault drill (issue 23; docs/adr/0009-postgresql-records-owed-work.md): bookings under load while
# Redis is restarted without its data and then PostgreSQL is restarted; reports what was owed, what
# happened and how long recovery took (bench/fault-drill.ts does the work; results in bench/README.md).
#
#   bash scripts/fault-drill.sh                 a private pair: PostgreSQL on 127.0.0.1:5440 and Redis on
#                                               :6390, started here in a temporary folder and removed after
#   DATABASE_URL=… REDIS_URL=… REDIS_RESTART_CMD=… PG_RESTART_CMD=… bash scripts/fault-drill.sh
#                                               servers of your own (both commands required: they restart them)
#
# Variables: DRILL_PG_PORT (5440), DRILL_REDIS_PORT (6390), DRILL_DOWN_SECONDS (3: how long each private server
# stays down), DRILL_NO_BUILD=1 (use dist/ as it is), NODE (default: npm's Node 24 under node_modules), and the
# driver's DRILL_* knobs (bench/fault-drill.ts). Against the compose stack, see bench/README.md ("Fault drill").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
NODE=${NODE:-$root/node_modules/node/bin/node}
[ -x "$NODE" ] || NODE=node
down=${DRILL_DOWN_SECONDS:-3}

if [ -z "${DATABASE_URL:-}" ]; then
  [ -z "${REDIS_URL:-}${REDIS_RESTART_CMD:-}${PG_RESTART_CMD:-}" ] ||
    { echo "fault-drill: REDIS_URL and the restart commands go with DATABASE_URL (or set none of them)" >&2; exit 2; }
  pg_port=${DRILL_PG_PORT:-5440}
  redis_port=${DRILL_REDIS_PORT:-6390}
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$bin" ] && command -v redis-server >/dev/null ||
    { echo "fault-drill: needs PostgreSQL (/usr/lib/postgresql/*/bin) and redis-server installed" >&2; exit 2; }
  for port in "$pg_port" "$redis_port"; do
    ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null ||
      { echo "fault-drill: port $port is taken; set DRILL_PG_PORT / DRILL_REDIS_PORT" >&2; exit 2; }
  done
  dir=$(mktemp -d /tmp/uvol-fault-drill.XXXXXX)
  chmod 755 "$dir"
  # initdb and postgres refuse root: run them as the postgres user when root.
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir"
    as_pg="su postgres -c"
  else
    as_pg="bash -c"
  fi
  pgdata="$dir/pg"
  pg_opts="-p $pg_port -k $dir -c listen_addresses=127.0.0.1"
  redis_start="redis-server --bind 127.0.0.1 --port $redis_port --save '' --appendonly no --daemonize yes --dir $dir --logfile $dir/redis.log"
  cleanup() {
    redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
    $as_pg "$bin/pg_ctl -D $pgdata -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$dir"
  }
  trap cleanup EXIT
  trap "exit 130" INT TERM
  $as_pg "$bin/initdb -D $pgdata -U postgres --auth=trust" >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  $as_pg "$bin/pg_ctl -D $pgdata -o '$pg_opts' -l $dir/pg.log -w start" >/dev/null
  eval "$redis_start"
  "$bin/psql" -q -h 127.0.0.1 -p "$pg_port" -U postgres -c 'CREATE DATABASE uvol_drill' postgres
  export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/uvol_drill"
  export REDIS_URL="redis://127.0.0.1:$redis_port"
  # Redis without persistence: stopped without saving, started again empty.
  export REDIS_RESTART_CMD="redis-cli -p $redis_port shutdown nosave; sleep $down; $redis_start"
  export PG_RESTART_CMD="$as_pg \"$bin/pg_ctl -D $pgdata -m fast -w stop\" >/dev/null; sleep $down; \
$as_pg \"$bin/pg_ctl -D $pgdata -o '$pg_opts' -l $dir/pg.log -w start\" >/dev/null"
  export DRILL_DIR=${DRILL_DIR:-$dir/run}
  mkdir -p "$DRILL_DIR"
  echo "fault-drill: private PostgreSQL on :$pg_port and Redis on :$redis_port in $dir (removed at the end)" >&2
else
  : "${REDIS_URL:?set REDIS_URL with DATABASE_URL}"
  : "${REDIS_RESTART_CMD:?set REDIS_RESTART_CMD: a command that restarts that Redis without its data}"
  : "${PG_RESTART_CMD:?set PG_RESTART_CMD: a command that restarts that PostgreSQL}"
fi

[ "${DRILL_NO_BUILD:-}" = 1 ] || npm run -s build
"$NODE" dist/bench/fault-drill.js
