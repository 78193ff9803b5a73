#!/usr/bin/env bash
# bench/admin-account.sh USER PASSWORD [BASE] — signs USER up on the service at BASE (a 409: it exists already) and
# grants it the admin and worker roles with bin/admin, as an operator does; prints nothing on success. The bench
# scripts log in as this account for queue settings, stats and the job endpoints.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
user=$1 password=$2 base=${3:-http://127.0.0.1:18090}
code=$(curl -sS -o /dev/null -w '%{http_code}' -XPOST "$base/v1/users" -H 'Content-Type: application/json' \
  -d "{\"username\":\"$user\",\"password\":\"$password\",\"displayName\":\"bench admin\"}")
[[ $code == 201 || $code == 409 ]] || { echo "sign-up of $user: HTTP $code" >&2; exit 1; }
"$ROOT/bin/admin" grant "$user" admin worker >/dev/null
