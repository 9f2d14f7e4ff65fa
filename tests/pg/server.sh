#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store tests.
#   server.sh start DIR   starts one with its data in DIR/data and writes its
#                         URL to DIR/url (or, when KEDB_TEST_POSTGRES names a
#                         server already, writes that URL and starts nothing)
#   server.sh stop DIR    stops it and removes DIR
# With no PostgreSQL installed, start writes the reason to DIR/missing and
# succeeds: the tests that need a server then skip saying so, or fail when
# KEDB_REQUIRE_POSTGRES=1 (as CI sets it).
set -euo pipefail
cmd=$1 dir=$(realpath -m "$2")  # the server runs in its data folder

run_as_owner() {  # initdb and postgres refuse to run as root
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
start)
  rm -rf "$dir"; mkdir -p "$dir"
  if [ -n "${KEDB_TEST_POSTGRES:-}" ]; then echo "$KEDB_TEST_POSTGRES" > "$dir/url"; exit 0; fi
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "no PostgreSQL server installed (Debian: apt-get install postgresql)" > "$dir/missing"; exit 0
  fi
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root and there is no postgres user to run the server as" > "$dir/missing"; exit 0
  fi
  # Clients connect over TCP; the socket goes in a short path of its own
  # (a socket's path may not exceed 107 bytes).
  sock=$(mktemp -d /tmp/kedb-pg.XXXXXX); echo "$sock" > "$dir/sock"
  mkdir -p "$dir/data"; chmod 700 "$dir/data"
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$dir" "$sock"; fi
  run_as_owner "$bin/initdb" -D "$dir/data" -U kedb --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { echo "initdb failed: $(tail -3 "$dir/initdb.log")" > "$dir/missing"; exit 0; }
  # A port nothing else uses: try a few at random.
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$(( 20000 + RANDOM % 30000 ))
    if run_as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 30 \
         -o "-p $port -k $sock -c listen_addresses=localhost -c fsync=on" start >/dev/null 2>&1; then
      echo "postgresql://kedb@localhost:$port/postgres" > "$dir/url"
      echo "$bin" > "$dir/bin"
      exit 0
    fi
  done
  echo "the server did not start: $(tail -3 "$dir/data/server.log" 2>/dev/null)" > "$dir/missing"
  ;;
stop)
  if [ -f "$dir/bin" ]; then
    run_as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [ -f "$dir/sock" ]; then rm -rf "$(cat "$dir/sock")"; fi
  rm -rf "$dir"
  ;;
*) echo "usage: server.sh start|stop DIR" >&2; exit 2 ;;
esac
