#!/usr/bin/env bash
# Creates what docker/compose.yml needs and no image contains: docker/.env with random passwords and cursor
# secret, and an RS256 key pair for bearer tokens in docker/secrets/. Existing files are kept.
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

if [[ ! -f $dir/.env ]]; then
  random() { openssl rand -hex 24; }
  sed -e "s/^PINION_MYSQL_PASSWORD=.*/PINION_MYSQL_PASSWORD=$(random)/" \
      -e "s/^PINION_REDIS_PASSWORD=.*/PINION_REDIS_PASSWORD=$(random)/" \
      -e "s/^PINION_CURSOR_SECRET=.*/PINION_CURSOR_SECRET=$(random)/" \
      "$dir/.env.example" >"$dir/.env"
  chmod 600 "$dir/.env"
  echo "wrote $dir/.env"
fi

# The directory keeps the keys private on this machine; the files themselves must be readable by the
# container's user (uid 185), because Compose bind-mounts file secrets with their permissions.
mkdir -p "$dir/secrets"
chmod 700 "$dir/secrets"
if [[ ! -f $dir/secrets/jwt-private.pem ]]; then
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/secrets/jwt-private.pem" 2>/dev/null
  openssl pkey -in "$dir/secrets/jwt-private.pem" -pubout -out "$dir/secrets/jwt-public.pem"
  chmod 644 "$dir/secrets/jwt-private.pem" "$dir/secrets/jwt-public.pem"
  echo "wrote a JWT key pair in $dir/secrets"
fi
