# Sourced (not executed) by the mysql image's entrypoint on the first start, after it created MYSQL_USER:
# the service's account gets every privilege on the shard databases (db00000, db00001, ...) and nothing else;
# the service creates and migrates them itself. (MySQL 8.4 still accepts, but deprecates, wildcards in
# database-level grants.)
docker_process_sql --database=mysql <<<"GRANT ALL PRIVILEGES ON \`db%\`.* TO '${MYSQL_USER}'@'%';"
