#!/usr/bin/env bash
# Validates the k6 scripts without k6: every script and lib module parses as an ES module (node --check on a .mjs
# copy), the scripts import only k6's modules and ./lib/*.js (lib imports only ./*.js), the node tests pass
# (lib/ modules, and every script run under k6 stand-ins against an in-memory API), and the wrk scripts parse
# and run under a stand-in for wrk's Lua API when lua5.1 or luajit is installed. Exits non-zero on any failure.
#
#   bash k6/check.sh
set -uo pipefail
cd "$(dirname "$0")"
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== syntax (ES modules)"
# a .mjs file is always parsed as a module: make sure node rejects module syntax elsewhere, so the check means it
printf "import http from 'k6/http';\nexport default function () {}\n" > "$tmp/probe.mjs"
printf "import http from 'k6/http';\n" > "$tmp/probe.cjs"
if ! node --check "$tmp/probe.mjs" 2>/dev/null || node --check "$tmp/probe.cjs" 2>/dev/null; then
  fail "node --check does not tell modules from scripts here"
fi
for f in *.js lib/*.js; do
  cp "$f" "$tmp/module.mjs"
  if node --check "$tmp/module.mjs" 2> "$tmp/err"; then echo "ok $f"; else fail "$f does not parse"; sed "s|$tmp/module.mjs|$f|" "$tmp/err"; fi
done

echo "== imports"
# $1 file, $2 regex of allowed specifiers; relative ones must name an existing file
check_imports() {
  local f=$1 allowed=$2 specs statements found spec
  specs=$(grep -oE "(^|[^[:alnum:]_$.])(from|import)[[:space:]]*['\"][^'\"]*['\"]" "$f" | sed -E "s/.*['\"]([^'\"]*)['\"]$/\1/")
  statements=$(grep -cE "^[[:space:]]*import([[:space:]{*'\"]|$)|^[[:space:]]*export[^=]*[[:space:]]from[[:space:]]" "$f")
  found=$(printf '%s' "$specs" | grep -c . || true)
  if [[ $found -ne $statements ]]; then fail "$f: $statements import statements but $found module names found (one import per statement, 'from' on the same line as its name)"; fi
  if grep -nE "(^|[^[:alnum:]_$.])(import[[:space:]]*\(|require[[:space:]]*\()" "$f"; then fail "$f: dynamic import() or require()"; fi
  while IFS= read -r spec; do
    [[ -z $spec ]] && continue
    if [[ ! $spec =~ $allowed ]]; then fail "$f imports '$spec'"; continue; fi
    if [[ $spec == ./* && ! -f $(dirname "$f")/$spec ]]; then fail "$f imports '$spec', which does not exist"; fi
  done <<< "$specs"
}
for f in *.js; do check_imports "$f" '^(k6|k6/http|k6/metrics|k6/data|k6/execution|\./lib/[a-z0-9-]+\.js)$'; done
for f in lib/*.js; do check_imports "$f" '^\./[a-z0-9-]+\.js$'; done
echo "checked $(ls *.js lib/*.js | wc -l) files"

echo "== node tests"
if ! node --test test/; then fail "node tests"; fi

echo "== wrk scripts (Lua 5.1)"
lua=$(command -v lua5.1 || command -v luajit || true)
luac=$(command -v luac5.1 || command -v luac || true)
if [[ -z $lua && -z $luac ]]; then
  echo "skipped: no lua5.1, luajit or luac (apt-get install lua5.1)"
else
  for f in wrk/*.lua testkit/*.lua; do
    if [[ -n $luac ]]; then out=$("$luac" -p "$f" 2>&1); else out=$("$lua" -e "assert(loadfile('$f'))" 2>&1); fi
    if [[ $? -eq 0 ]]; then echo "ok $f"; else fail "$f does not parse"; echo "$out"; fi
  done
  if [[ -n $lua ]]; then
    if ! "$lua" testkit/wrk-harness.lua; then fail "wrk scripts under the harness ($lua)"; fi
  else
    echo "skipped the wrk harness: no lua5.1 or luajit"
  fi
fi

echo "== setup-queue.sh"
if bash -n wrk/setup-queue.sh && SEED_DIR=testkit/fixtures/seed bash wrk/setup-queue.sh --dry-run > "$tmp/dry" \
  && grep -q '^Authorization: Bearer tok-' "$tmp/dry" && grep -q '"name":"k6_jobs"' "$tmp/dry"; then
  echo "ok wrk/setup-queue.sh"
else
  fail "wrk/setup-queue.sh"; cat "$tmp/dry"
fi

if [[ $failed -eq 0 ]]; then echo "check: all passed"; else echo "check: $failed failed"; fi
exit $((failed > 0))
