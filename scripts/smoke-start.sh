#!/usr/bin/env bash
# Starts the service as a first-time user would (`npm start`, no settings, empty DATA_DIR) and
# waits for /health to answer 200. Used by CI; handy after changing the start path.
set -euo pipefail
dir=$(mktemp -d)
port=$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")
log="$dir/start.log"
# Its own process group, so stopping it stops npm and the node process npm started.
setsid env -u DATABASE_URL -u REDIS_URL DATA_DIR="$dir/data" PORT="$port" npm start >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
    echo "npm start: /health answered on port $port"
    curl -fsS "http://127.0.0.1:$port/" | grep -q '"docs":"/api/docs"' || { echo "GET / does not point at /api/docs" >&2; exit 1; }
    grep -o '"msg":"serving[^"]*"' "$log" || true
    exit 0
  fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.5
done
echo "npm start did not become healthy; its log:" >&2
cat "$log" >&2
exit 1
