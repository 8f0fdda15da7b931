#!/bin/sh
# Run once by the postgres image on an empty data directory: the least-privilege role the API servers and
# workers log in as (decision 018). `herald migrate` grants it what it needs.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v app_password="$HERALD_APP_PASSWORD" <<'SQL'
create role herald_app with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls
  password :'app_password';
SQL
