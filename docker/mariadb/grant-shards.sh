# Sourced (not executed) by the MariaDB image's entrypoint on the first start, after it created MARIADB_USER (the
# official mariadb image and docker/local/Dockerfile.mariadb alike): the service's account gets every privilege on
# the shard databases (db00000, db00001, ...) and nothing else; the service creates and migrates them itself.
# shellcheck shell=bash disable=SC2154
docker_process_sql --database=mysql <<<"GRANT ALL PRIVILEGES ON \`db%\`.* TO '${MARIADB_USER}'@'%';"
