#!/usr/bin/env bash
# Runs the Durable Batch benchmarks (docs/modules/ROOT/pages/benchmarks.adoc) and prints one JSON
# line per workload on stdout.
#
#   benchmarks/run.sh [workload...]    workloads (default: all, in this order):
#                                      launch-sequential launch-concurrent same-key-storm
#                                      history-lookups execution-listing partition-plan partition-claim
#                                      partition-aggregate observe-control purge
#
# Environment: BENCH_DB_URL (default jdbc:postgresql://127.0.0.1:5432/dbatch_bench), BENCH_DB_USER
# (default postgres), BENCH_DB_PASSWORD; BENCH_SKIP_BUILD=1 reuses the last build. Workload sizes are
# system properties, e.g. JAVA_OPTS=-Dbenchmark.launch.count=500.
set -euo pipefail
cd "$(dirname "$0")/.."

export BENCH_DB_URL="${BENCH_DB_URL:-jdbc:postgresql://127.0.0.1:5432/dbatch_bench}"
export BENCH_DB_USER="${BENCH_DB_USER:-postgres}"

# Host, port and database of the JDBC URL, for psql.
address="${BENCH_DB_URL#jdbc:postgresql://}"
address="${address%%\?*}"
database="${address#*/}"
host_port="${address%%/*}"
host="${host_port%%:*}"
port=5432
if [[ "$host_port" == *:* ]]; then port="${host_port##*:}"; fi

admin() {
    PGPASSWORD="${BENCH_DB_PASSWORD:-}" psql -X -q -At -v ON_ERROR_STOP=1 \
        -h "$host" -p "$port" -U "$BENCH_DB_USER" -d postgres "$@"
}

# 1. Statements are counted as PostgreSQL sees them: pg_stat_statements must be preloaded. Only when
#    it is not does this change the server's configuration and restart the (local) cluster.
libraries="$(admin -c "SHOW shared_preload_libraries")"
if [[ ",${libraries// /}," != *",pg_stat_statements,"* ]]; then
    cluster="$(admin -c "SHOW cluster_name")"
    if [[ "$cluster" != */* ]]; then
        echo "run.sh: preload pg_stat_statements (shared_preload_libraries) and restart PostgreSQL first" >&2
        exit 1
    fi
    echo "run.sh: preloading pg_stat_statements and restarting PostgreSQL $cluster" >&2
    admin -c "ALTER SYSTEM SET shared_preload_libraries = '${libraries:+$libraries,}pg_stat_statements'"
    pg_ctlcluster "${cluster%%/*}" "${cluster#*/}" restart
    until pg_isready -q -h "$host" -p "$port"; do sleep 1; done
fi

# 2. The benchmark's database.
if [[ "$(admin -c "SELECT count(*) FROM pg_database WHERE datname = '$database'")" == 0 ]]; then
    admin -c "CREATE DATABASE \"$database\""
fi

# 3. Build the benchmark application and the extension it uses.
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
    mvn -B -q -pl benchmarks -am package -DskipTests
fi

# 4. Run.
exec java ${JAVA_OPTS:-} -jar benchmarks/target/quarkus-app/quarkus-run.jar "$@"
