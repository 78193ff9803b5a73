# Sourced by bin/run, bin/seed and bin/admin: the secrets the packaged service needs (its prod profile refuses to
# start without them), for the local stack. A deployment sets its own; any already in the environment is kept.
#   PINION_JWT_PRIVATE_KEY / PINION_JWT_PUBLIC_KEY   an RSA key pair, generated once under .stack/jwt
#   PINION_CURSOR_SECRET                             a random secret, generated once in .stack/cursor-secret
#   PINION_MYSQL_PASSWORD                            the local stack's MySQL account password (bin/stack)
local_secrets() {
  local root=$1 keys=${PINION_STACK_DIR:-$1/.stack}/jwt
  if [[ -z ${PINION_JWT_PRIVATE_KEY:-} && ! -f $keys/private.pem ]]; then
    mkdir -p "$keys"
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$keys/private.pem" 2>/dev/null
    openssl pkey -in "$keys/private.pem" -pubout -out "$keys/public.pem"
    chmod 600 "$keys/private.pem"
    echo "generated a local JWT key pair in $keys" >&2
  fi
  export PINION_JWT_PRIVATE_KEY=${PINION_JWT_PRIVATE_KEY:-file:$keys/private.pem}
  export PINION_JWT_PUBLIC_KEY=${PINION_JWT_PUBLIC_KEY:-file:$keys/public.pem}
  if [[ -z ${PINION_CURSOR_SECRET:-} ]]; then
    if [[ ! -s ${PINION_STACK_DIR:-$root/.stack}/cursor-secret ]]; then
      mkdir -p "${PINION_STACK_DIR:-$root/.stack}"
      (umask 077; openssl rand -hex 32 > "${PINION_STACK_DIR:-$root/.stack}/cursor-secret")
    fi
    PINION_CURSOR_SECRET=$(cat "${PINION_STACK_DIR:-$root/.stack}/cursor-secret")
    export PINION_CURSOR_SECRET
  fi
  export PINION_MYSQL_PASSWORD=${PINION_MYSQL_PASSWORD:-pinion}
}
