#!/usr/bin/env bash
# Creates what docker/compose.yml needs and no image contains: docker/.env with random passwords and cursor
# secret, and an RS256 key pair for bearer tokens in docker/secrets/. Existing files are kept.
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

random() { openssl rand -hex 24; }
secrets=(PINION_MYSQL_PASSWORD PINION_MYSQL_OPS_PASSWORD PINION_MYSQL_REPLICATION_PASSWORD PINION_REDIS_PASSWORD
  PINION_CURSOR_SECRET)
if [[ ! -f $dir/.env ]]; then
  (umask 077; cp "$dir/.env.example" "$dir/.env")
  for key in "${secrets[@]}"; do sed -i "s/^$key=.*/$key=$(random)/" "$dir/.env"; done
  chmod 600 "$dir/.env"
  echo "wrote $dir/.env"
else
  # an .env written before a secret existed gets a random value for it; the others are kept
  for key in "${secrets[@]}"; do
    if ! grep -q "^$key=" "$dir/.env"; then
      echo "$key=$(random)" >>"$dir/.env"
      echo "added $key to $dir/.env"
    fi
  done
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
