#!/usr/bin/env bash
# README.md's "From nothing to a first call", done as a newcomer does it, so the README cannot drift
# from what works:
#
#   1. a fresh `git clone` of this repository's HEAD (committed work only) into a temporary folder,
#      then `npm install` (from the npm cache when it has the packages: --prefer-offline);
#   2. `npm run cli -- provision examples/demo-organisation.json` on an empty data folder;
#   3. `npm start` on a random free port, with none of the service's variables set
#      (docs/operations.md, "Configuration": no DATABASE_URL, no REDIS_URL, no DATA_DIR: embedded, `./.data`);
#   4. the README's log-in lines, taken from README.md itself (the block between the
#      `<!-- newcomer:login` markers) and run as they are, then one more authenticated call.
#
# Also checked on the way: `npm start` after step 2 does not compile again (scripts/build.mjs), a
# changed source makes a build due and undoing the change makes it not, `npm run build` leaves none
# due, GET / and the start-up lines. Fails, with the log of the step that failed, if anything does. Used by CI (.ci/run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/uvol-newcomer-XXXXXX")
t0=$(date +%s)
pid=
timings=()

step() { printf '\n--> %s\n' "$*"; }
elapsed() { echo $(($(date +%s) - $1)); }
fail() {
  echo "newcomer run FAILED: $*" >&2
  for f in "$work"/*.log; do
    [ -s "$f" ] && { printf '\n--- %s (last 60 lines)\n' "$(basename "$f")" >&2; tail -n 60 "$f" >&2; }
  done
  exit 1
}
stop_server() {
  if [ -n "$pid" ]; then
    kill -- -"$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT

# None of the service's variables: each one the configuration table (docs/operations.md) names is unset.
vars=$(grep -oE '^\| `[A-Z_]+`' "$root/docs/operations.md" | tr -d '|` ')
[ -n "$vars" ] || fail "docs/operations.md has no configuration table: update scripts/newcomer-run.sh"
for var in $vars; do unset "$var"; done
unset TEST_EMBEDDED TEST_REDIS_URL TEST_PG_ADMIN_URL

if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "note: the working tree has uncommitted changes; this run checks HEAD ($(git -C "$root" rev-parse --short HEAD)) without them"
fi

step "1. git clone (HEAD $(git -C "$root" rev-parse --short HEAD)) and npm install"
t=$(date +%s)
git -c advice.detachedHead=false clone --quiet "$root" "$work/uvol"
cd "$work/uvol"
# The commands this script runs are the README's, each on a line of its own there.
for line in 'npm install' 'npm run cli -- provision examples/demo-organisation.json' 'npm start' 'rm -rf .data'; do
  grep -qxF -- "$line" README.md || fail "README.md no longer has the line \`$line\`: update scripts/newcomer-run.sh with it"
done
npm install --prefer-offline --no-audit --no-fund --loglevel=error >"$work/install.log" 2>&1 || fail "npm install"
[ -x node_modules/.bin/node ] || fail "npm install left no node_modules/.bin/node (the node@24 dev dependency)"
# package.json's allowScripts names every install script (node@24's preinstall among them): none is left to npm's default.
npm install-scripts ls 2>&1 | grep -q 'No packages with unreviewed install scripts' ||
  fail "install scripts not covered by package.json's allowScripts: $(npm install-scripts ls 2>&1 | tr '\n' ' ')"
node_modules/.bin/node --version | grep -q '^v24\.' || fail "node_modules/.bin/node is not Node 24 (its preinstall did not run)"
echo "npm install: $(elapsed "$t") s; npm scripts run on Node $(node_modules/.bin/node --version) (the machine's node: $(node --version))"
timings+=("npm install $(elapsed "$t") s")

step "2. npm run cli -- provision examples/demo-organisation.json"
t=$(date +%s)
[ ! -e .data ] || fail "the fresh clone has a .data folder"
npm run cli -- provision examples/demo-organisation.json >"$work/provision.out" 2>"$work/provision.log" ||
  { cat "$work/provision.out" >>"$work/provision.log"; fail "provision"; }
cat "$work/provision.log"
ids=$(tail -n 1 "$work/provision.out")
echo "$ids"
node -e 'const r = JSON.parse(process.argv[1]); const want = ["admin", "emma", "sam", "alex", "mia"];
  if (r.organisation.slug !== "demo" || want.some((k) => !Number.isInteger(r.users[k]))) process.exit(1)' "$ids" ||
  fail "provision did not print the key → id map of the example"
[ -f .data/pglite/PG_VERSION ] || fail "no embedded database in ./.data (README: DATA_DIR's default)"
grep -q '^creating the embedded database' "$work/provision.log" || fail "the first command did not say it was creating the database"
grep -qE '^running [0-9]+ migrations' "$work/provision.log" || fail "the first command did not say it was running the migrations"
timings+=("first command (compile, create the database, migrate, provision) $(elapsed "$t") s")

step "3. npm start (no rebuild: nothing changed since step 2)"
node scripts/build.mjs --check || fail "a build is due right after the build of step 2"
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
export PORT=$port
t=$(date +%s%N)
# LOG_PRETTY=1: the log as a newcomer's terminal shows it. Its own process group, so stopping it
# stops npm and the node process npm started.
LOG_PRETTY=1 setsid npm start >"$work/start.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || fail "npm start exited"
  sleep 0.25
done
curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 || fail "npm start did not answer /health within 60 s"
ready_ms=$((($(date +%s%N) - t) / 1000000))
echo "npm start: /health answered after $ready_ms ms"
if grep -q 'compiling TypeScript' "$work/start.log"; then fail "npm start compiled again although nothing changed"; fi
grep -q "serving http://127.0.0.1:$port" "$work/start.log" || fail "no 'serving <url>' line"
grep -q "uvol is ready: http://127.0.0.1:$port" "$work/start.log" || fail "no ready banner on a terminal"
root_body=$(curl -fsS "http://127.0.0.1:$port/")
echo "GET / → $root_body"
node -e 'const b = JSON.parse(process.argv[1]); if (b.docs !== "/api/docs" || b.health !== "/health") process.exit(1)' "$root_body" ||
  fail "GET / does not point at /api/docs and /health"
timings+=("npm start to /health, no compile $ready_ms ms")

step "4. the README's log-in lines (README.md, <!-- newcomer:login --> block), as they are"
block=$(awk '/^<!-- newcomer:login/ { on = 1; next } /^<!-- \/newcomer:login/ { on = 0 } on && !/^```/' README.md)
[ -n "$block" ] || fail "README.md has no <!-- newcomer:login --> block"
printf '%s\n' "$block" | sed 's/^/    /'
# The block as written, then the JWT it left in $JWT for one more call below.
bash -euo pipefail -c "$block"$'\n''printf "\nJWT=%s\n" "$JWT"' >"$work/login.log" 2>&1 || fail "the README's log-in lines"
grep -v '^JWT=' "$work/login.log"
me=$(grep -v '^JWT=' "$work/login.log" | grep . | tail -n 1)
jwt=$(sed -n 's/^JWT=//p' "$work/login.log")
# Every permission the service knows (libs/identity/src/permissions.ts), not a count kept here.
node -e 'const me = JSON.parse(process.argv[1]).data;
  const src = require("fs").readFileSync(process.argv[2], "utf8");
  const all = [...src.slice(src.indexOf("PERMISSIONS = ["), src.indexOf("] as const")).matchAll(/\x27([a-z-]+)\x27/g)].map((m) => m[1]).sort();
  if (me.display_name !== "Ada Admin" || JSON.stringify([...me.permissions].sort()) !== JSON.stringify(all) || all.length < 9) process.exit(1)' \
  "$me" libs/identity/src/permissions.ts ||
  fail "GET /api/users/me did not answer the admin with every permission"
# One more authenticated call, one that needs a permission the admin has (manage-organisation).
organisation=$(curl -fsS "http://127.0.0.1:$port/api/organisation/detailed" -H "Authorization: Bearer $jwt") ||
  fail "GET /api/organisation/detailed with the README's JWT"
node -e 'if (JSON.parse(process.argv[1]).data.slug !== "demo") process.exit(1)' "$organisation" ||
  fail "GET /api/organisation/detailed did not answer the demo organisation"
echo "GET /api/organisation/detailed → the demo organisation (${#organisation} bytes)"
stop_server

step "the build check: a changed source makes a build due, undoing it or npm run build does not"
cp apps/standalone/src/main.ts "$work/main.ts.orig"
echo '// a change' >>apps/standalone/src/main.ts
if node scripts/build.mjs --check 2>/dev/null; then fail "a changed source did not make a build due"; fi
cp "$work/main.ts.orig" apps/standalone/src/main.ts
node scripts/build.mjs --check || fail "undoing the change left a build due"
echo '// a change' >>apps/standalone/src/main.ts
npm run -s build || fail "npm run build"
node scripts/build.mjs --check || fail "npm run build left a build due (it wrote no build stamp)"
cp "$work/main.ts.orig" apps/standalone/src/main.ts

printf '\nnewcomer run passed in %s s:\n' "$(elapsed "$t0")"
printf '  %s\n' "${timings[@]}"
