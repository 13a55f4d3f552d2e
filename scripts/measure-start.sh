#!/usr/bin/env bash
# Start-up time and memory of the standalone process (bench/README.md, "first start"): for each of
# ROUNDS rounds, a first start on an empty DATA_DIR, then a later start on the same folder. Each
# start runs `node dist/apps/standalone/src/main.js` (embedded mode: no DATABASE_URL, no
# REDIS_URL) until /health answers, and prints:
#
#   ready_ms   from launch to the first 200 of /health
#   rss_mb     the server process's resident memory SETTLE seconds later (VmRSS; default 3: the
#              V8 compiler's work on PGlite's WASM may still be under way when /health answers)
#   peak_mb    the most it held on the way (VmHWM)
#   tree_mb    the largest process of the start, a child too (GNU time's %M: the server, or the
#              process that created the database for it), when /usr/bin/time exists
#
# Usage: [SETTLE=3] bash scripts/measure-start.sh [repository folder (default: this one)] [rounds (default 3)]
# The folder must be built (npm run build). Nothing else should run on the machine meanwhile.
set -euo pipefail
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
rounds=${2:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/uvol-measure-XXXXXX")
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
node=$repo/node_modules/.bin/node
[ -x "$node" ] || node=node
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f 'tree_kb=%M' -o "$work/time.txt")

start_once() { # $1 = data folder, $2 = label
  local port t pid
  port=$("$node" -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
  t=$(date +%s%N)
  (cd "$repo" && exec env -u DATABASE_URL -u REDIS_URL DATA_DIR="$1" PORT="$port" LOG_PRETTY=0 LOG_LEVEL=warn \
    "${timer[@]}" "$node" dist/apps/standalone/src/main.js) >"$work/server.log" 2>&1 &
  pid=$!
  until curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.05
  done
  local ready=$((($(date +%s%N) - t) / 1000000))
  # With GNU time the server is its child.
  server=$(pgrep -P "$pid" -n || echo "$pid")
  [ "${#timer[@]}" -eq 0 ] && server=$pid
  local rss peak
  sleep "${SETTLE:-3}"
  rss=$(awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$server/status")
  peak=$(awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$server/status")
  kill "$server"
  wait "$pid" 2>/dev/null || true
  server=
  local tree=''
  [ -f "$work/time.txt" ] && tree=" tree_mb=$(($(sed -n 's/^tree_kb=//p' "$work/time.txt") / 1024))"
  echo "$2 ready_ms=$ready rss_mb=$rss peak_mb=$peak$tree"
}

echo "# $repo ($(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')), Node $("$node" --version), $(nproc) cores"
for round in $(seq 1 "$rounds"); do
  rm -rf "$work/data"
  start_once "$work/data" "round $round first"
  start_once "$work/data" "round $round later"
done
