#!/usr/bin/env bash
# Starts a private PostgreSQL cluster for the hub's store tests and prints the URL to export:
#   eval "$(packages/hub/scripts/test-postgres.sh start)"   # sets ERPCERT_TEST_POSTGRES_URL and ERPCERT_TEST_POSTGRES_DIR
#   packages/hub/scripts/test-postgres.sh stop "$ERPCERT_TEST_POSTGRES_DIR"
# Needs Debian's postgresql package (initdb and pg_ctl under /usr/lib/postgresql/<version>/bin). The cluster lives in
# a temporary folder, listens on 127.0.0.1 only, on a free port, trusts local connections, and is owned by the
# postgres user when run as root (initdb refuses to run as root).
set -euo pipefail

bin_dir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$d" ] || [ ! -x "$d/initdb" ]; then
    echo "PostgreSQL is not installed: apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "$d"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

case "${1:-}" in
  start)
    BIN=$(bin_dir)
    DIR=$(mktemp -d /tmp/erpcert-hub-pg.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
    PORT=$(free_port)
    as_owner "$BIN/initdb" -D "$DIR/data" -U erpcert --auth=trust --encoding=UTF8 --no-locale >"$DIR/initdb.log" 2>&1 ||
      { cat "$DIR/initdb.log" >&2; exit 1; }
    as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DIR -c fsync=off" start >&2 ||
      { cat "$DIR/server.log" >&2; exit 1; }
    echo "export ERPCERT_TEST_POSTGRES_URL=postgres://erpcert@127.0.0.1:$PORT/postgres"
    echo "export ERPCERT_TEST_POSTGRES_DIR=$DIR"
    ;;
  stop)
    DIR=${2:?usage: test-postgres.sh stop DIR}
    BIN=$(bin_dir)
    as_owner "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >&2
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: test-postgres.sh start | stop DIR" >&2
    exit 2
    ;;
esac
