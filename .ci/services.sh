#!/usr/bin/env bash
# Starts throw-away MariaDB and PostgreSQL servers on 127.0.0.1 for the SQL mirror tests and
# exports their JDBC URLs:
#   STORH_TEST_MARIADB_URL   jdbc:mariadb://127.0.0.1:<port>/storh_test?user=root
#   STORH_TEST_POSTGRES_URL  jdbc:postgresql://127.0.0.1:<port>/postgres?user=storh
# and a throw-away Azurite blob service (npm, pinned) for the blob backend tests:
#   STORH_TEST_AZURITE_CONNECTION_STRING  DefaultEndpointsProtocol=http;...;BlobEndpoint=http://127.0.0.1:<port>/devstoreaccount1;
# Source it (`. .ci/services.sh`); the servers stop when the sourcing shell exits (EXIT trap) or
# when you call storh_services_stop. Data lives in a temporary folder that is removed at stop.
# Missing servers are installed from Debian packages (apt-get, as root only). A server that cannot
# be installed or started is reported and left out; its tests then skip with that reason.

storh_services_dir="$(mktemp -d /tmp/storh-services.XXXXXX)"
storh_services_pids=()

storh_services_stop() {
  local pid
  for pid in "${storh_services_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${storh_services_pids[@]}"; do
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  done
  storh_services_pids=()
  [ -n "${storh_services_dir:-}" ] && rm -rf "$storh_services_dir"
}
trap storh_services_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

storh_free_port() {
  local port
  while :; do
    port=$(( (RANDOM % 20000) + 30000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

storh_apt_install() {
  if [ "$(id -u)" != 0 ]; then
    echo "services: $* missing and not root, cannot install" >&2
    return 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1; }
}

storh_start_mariadb() {
  command -v mariadbd >/dev/null 2>&1 || storh_apt_install mariadb-server || return 1
  local data="$storh_services_dir/mariadb" port
  port=$(storh_free_port)
  mkdir -p "$data"
  mariadb-install-db --no-defaults --datadir="$data" --user="$(id -un)" --auth-root-authentication-method=normal \
    >"$storh_services_dir/mariadb-install.log" 2>&1 || { echo "services: mariadb-install-db failed" >&2; return 1; }
  mariadbd --no-defaults --datadir="$data" --port="$port" --bind-address=127.0.0.1 --socket="$data/mysqld.sock" \
    --pid-file="$data/mysqld.pid" --user="$(id -un)" --skip-log-bin --innodb-buffer-pool-size=64M \
    >"$storh_services_dir/mariadb.log" 2>&1 &
  storh_services_pids+=("$!")
  for _ in $(seq 1 300); do
    if mariadb --no-defaults --protocol=tcp -h127.0.0.1 -P"$port" -uroot -e 'CREATE DATABASE IF NOT EXISTS storh_test' 2>/dev/null; then
      export STORH_TEST_MARIADB_URL="jdbc:mariadb://127.0.0.1:$port/storh_test?user=root"
      echo "services: MariaDB on 127.0.0.1:$port"
      return 0
    fi
    sleep 0.2
  done
  echo "services: MariaDB did not start, see $storh_services_dir/mariadb.log" >&2
  return 1
}

storh_start_postgres() {
  local bin
  # the client package (psql, pg_isready) also fills /usr/lib/postgresql/<v>/bin: look for the server
  bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)")
  if [ ! -x "$bin/initdb" ]; then
    storh_apt_install postgresql || return 1
    bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)")
    [ -x "$bin/initdb" ] || { echo "services: postgresql installed but no initdb found" >&2; return 1; }
  fi
  local data="$storh_services_dir/postgres" port as=()
  port=$(storh_free_port)
  mkdir -p "$data"
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$storh_services_dir" "$data"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$data" -U storh --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$storh_services_dir/postgres-init.log" 2>&1 || { echo "services: initdb failed" >&2; return 1; }
  "${as[@]}" "$bin/postgres" -D "$data" -p "$port" -c listen_addresses=127.0.0.1 -k "$data" -c fsync=off \
    >"$storh_services_dir/postgres.log" 2>&1 &
  local launcher=$!
  for _ in $(seq 1 300); do
    if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" 2>/dev/null; then
      # the server's own pid (the launcher may be runuser)
      storh_services_pids+=("$(head -n 1 "$data/postmaster.pid")")
      export STORH_TEST_POSTGRES_URL="jdbc:postgresql://127.0.0.1:$port/postgres?user=storh"
      echo "services: PostgreSQL on 127.0.0.1:$port"
      return 0
    fi
    sleep 0.2
  done
  storh_services_pids+=("$launcher")
  echo "services: PostgreSQL did not start, see $storh_services_dir/postgres.log" >&2
  return 1
}

# Azurite (the Azure Storage emulator, blob service only) for the storh-azure-blob tests: installed
# from the npm registry at a pinned version into the temporary folder, in-memory, telemetry off,
# on a free loopback port. Exports STORH_TEST_AZURITE_CONNECTION_STRING (Azurite's well-known
# development account); the tests skip with a reason when it is unset.
storh_azurite_version=3.35.0
storh_start_azurite() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    storh_apt_install nodejs npm || { echo "services: node/npm missing, no Azurite" >&2; return 1; }
  fi
  local dir="$storh_services_dir/azurite" port
  mkdir -p "$dir"
  (cd "$dir" && npm install --no-audit --no-fund --no-save --silent --prefix "$dir" "azurite@$storh_azurite_version") \
    >"$dir/npm.log" 2>&1 || { echo "services: npm install azurite@$storh_azurite_version failed, see $dir/npm.log" >&2; return 1; }
  local attempt pid
  for attempt in 1 2 3; do  # a fresh port each time: the first may be taken between the probe and the bind
    port=$(storh_free_port)
    (cd "$dir" && exec node "$dir/node_modules/azurite/dist/src/blob/main.js" --blobHost 127.0.0.1 \
      --blobPort "$port" --inMemoryPersistence --disableTelemetry --silent >"$dir/azurite.log" 2>&1) &
    pid=$!
    storh_services_pids+=("$pid")
    for _ in $(seq 1 600); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        export STORH_TEST_AZURITE_CONNECTION_STRING="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:$port/devstoreaccount1;"
        echo "services: Azurite $storh_azurite_version (blob) on 127.0.0.1:$port"
        return 0
      fi
      kill -0 "$pid" 2>/dev/null || break  # it exited: try again on another port
      sleep 0.2
    done
    kill "$pid" 2>/dev/null
    echo "services: Azurite attempt $attempt on port $port failed; its log:" >&2
    tail -n 20 "$dir/azurite.log" >&2
  done
  echo "services: Azurite did not start, see $dir/azurite.log" >&2
  return 1
}

storh_start_mariadb || true
storh_start_postgres || true
storh_start_azurite || true
