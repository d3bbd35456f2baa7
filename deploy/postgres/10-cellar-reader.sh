#!/bin/sh
# Makes the role Cellar's replicas log in as: it may read every table of the public schema, those
# made later included, and nothing else. PostgreSQL's image runs this once, when it makes its
# database (compose.yaml mounts this folder at /docker-entrypoint-initdb.d); the scale rehearsal
# (Tests/scale/run.sh) runs the same file against its throwaway cluster.
#
# Environment: POSTGRES_USER and POSTGRES_DB (the image's: who runs this, and where),
# CELLAR_READER_PASSWORD (required), CELLAR_READER (cellar_reader), CELLAR_TABLES_OWNER (the role
# that will make the tables; POSTGRES_USER). psql finds the server as libpq does (PGHOST, …).
set -eu
: "${CELLAR_READER_PASSWORD:?set CELLAR_READER_PASSWORD: the password of the role Cellar reads as}"
psql -X -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v reader="${CELLAR_READER:-cellar_reader}" -v password="$CELLAR_READER_PASSWORD" \
    -v owner="${CELLAR_TABLES_OWNER:-$POSTGRES_USER}" -v database="$POSTGRES_DB" <<'SQL'
CREATE ROLE :"reader" LOGIN PASSWORD :'password';
GRANT CONNECT ON DATABASE :"database" TO :"reader";
GRANT USAGE ON SCHEMA public TO :"reader";
GRANT SELECT ON ALL TABLES IN SCHEMA public TO :"reader";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public GRANT SELECT ON TABLES TO :"reader";
SQL
