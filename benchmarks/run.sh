#!/usr/bin/env bash
# Runs the Durable Batch benchmarks (docs/modules/ROOT/pages/benchmarks.adoc) and prints one JSON
# line per workload on stdout.
#
#   benchmarks/run.sh peer    the peer benchmark against quarkus-jberet and Spring Batch (benchmarks/peer/run.sh)
#   benchmarks/run.sh [--fresh-jvm] [workload...]
#                          workloads (default: all, in this order):
#                          launch-sequential launch-concurrent same-key-storm history-lookups
#                          execution-listing partition-plan partition-claim partition-aggregate
#                          observe-control purge chunk-etl kernel-launches partitioned-etl
#
# By default one JVM runs every workload, each warmed up first ("mode":"warm"). With --fresh-jvm
# each workload runs in a new JVM of its own, as a user's short job would, and the kernel workloads
# skip their warm-up ("mode":"fresh-jvm"); chunk-etl then runs BENCH_ROUNDS (default 3) paired
# rounds, the kernel and the bare-JDBC limit each in a new JVM, alternating, and prints one line
# with the ratio of each pair and their median (each JVM's own line goes to stderr).
#
# Environment: BENCH_DB_URL (default jdbc:postgresql://127.0.0.1:5432/dbatch_bench), BENCH_DB_USER
# (default postgres), BENCH_DB_PASSWORD; BENCH_SKIP_BUILD=1 reuses the last build. Workload sizes are
# system properties, e.g. JAVA_OPTS=-Dbenchmark.launch.count=500.
set -euo pipefail

if [[ "${1:-}" == peer ]]; then
    exec "$(dirname "$0")/peer/run.sh"
fi
mode=warm
if [[ "${1:-}" == --fresh-jvm ]]; then
    mode=fresh-jvm
    shift
fi
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
run_jar=benchmarks/target/quarkus-app/quarkus-run.jar
if [[ "$mode" == warm ]]; then
    exec java ${JAVA_OPTS:-} -jar "$run_jar" "$@"
fi
# One workload in a new JVM: fresh_jvm [JVM option...] WORKLOAD
fresh_jvm() {
    java ${JAVA_OPTS:-} -Dbenchmark.mode=fresh-jvm "${@:1:$#-1}" -jar "$run_jar" "${@: -1}"
}

# chunk-etl in fresh JVMs: the kernel and the limit alternate, one JVM each, and the pairs are
# summed up as the warm run sums up its rounds (the median is the upper middle, as there).
paired_chunk_etl() {
    local round path lines=()
    for round in $(seq 1 "${BENCH_ROUNDS:-3}"); do
        for path in kernel bare-jdbc; do
            lines+=("$(fresh_jvm -Dbenchmark.kernel.paths="$path" -Dbenchmark.kernel.rounds=1 chunk-etl)") || status=1
            echo "run.sh: chunk-etl round $round $path: ${lines[-1]}" >&2
        done
    done
    printf '%s\n' "${lines[@]}" | jq -s -c '
        def median: sort | .[length / 2 | floor];
        (map(select(.kernelRounds)) | map(.kernelRounds[0])) as $kernel
        | (map(select(.bareJdbcRounds)) | map(.bareJdbcRounds[0])) as $bare
        | ([range($kernel | length)] | map($kernel[.] / $bare[.])) as $ratios
        | {workload: "chunk-etl", items: .[0].items, chunk: .[0].chunk, pairs: ($ratios | length),
           kernelItemsPerSecond: ($kernel | median), bareJdbcItemsPerSecond: ($bare | median),
           ratio: ($ratios | median * 100 | round / 100), ratioRounds: ($ratios | map(. * 100 | round / 100)),
           metadataStatementsPerChunk: (map(.metadataStatementsPerChunk // empty) | max),
           kernelRounds: $kernel, bareJdbcRounds: $bare, mode: "fresh-jvm"}
        + (map(.violations // empty) | add | if . then {violations: .} else {} end)'
}

# Any other workload: its own JVM.
if [[ $# -eq 0 ]]; then
    set -- launch-sequential launch-concurrent same-key-storm history-lookups execution-listing partition-plan \
        partition-claim partition-aggregate observe-control purge chunk-etl kernel-launches partitioned-etl
fi
status=0
for workload in "$@"; do
    if [[ "$workload" == chunk-etl ]]; then
        paired_chunk_etl
    else
        fresh_jvm "$workload" || status=$?
    fi
done
exit "$status"
