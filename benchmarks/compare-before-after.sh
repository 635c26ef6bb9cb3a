#!/usr/bin/env bash
# Compares two builds of Durable Batch back to back on one machine (docs/modules/ROOT/pages/benchmarks.adoc):
# the benchmark workloads in paired rounds (each workload BEFORE then AFTER, adjacent in time, each run
# in its own JVM on a freshly created database), then the startup time of the demo application
# (module integration-tests), the two builds' starts alternating.
#
#   compare-before-after.sh OUT_DIR
#
# Environment:
#   BEFORE_APP, AFTER_APP    benchmarks/target/quarkus-app of each build (copied away: both are 999-SNAPSHOT)
#   BEFORE_DEMO, AFTER_DEMO  integration-tests/target/quarkus-app of each build (optional: no startup figures)
#   BENCH_HOST, BENCH_PORT, BENCH_USER
#                            a PostgreSQL server that preloads pg_stat_statements and lets BENCH_USER create
#                            databases (default 127.0.0.1, 5432, postgres; a private cluster is best)
#   PAIRS                    paired rounds of the workloads (default 2)
#   WORKLOADS                default: launch-sequential chunk-etl history-lookups purge
#   BENCH_JAVA_OPTS          sizes, default -Dbenchmark.history.executions=100000
#   DEMO_STARTS              starts of each demo build, per kind (fresh database, migrated database); default 3
#
# Writes OUT_DIR/results.jsonl (each workload's JSON line with "variant" and "round" added),
# OUT_DIR/pgss-*.txt (the statements PostgreSQL ran for each run, most frequent first),
# OUT_DIR/startup.tsv, OUT_DIR/env.txt and the runs' logs; prints OUT_DIR/summary.txt at the end.
# Drops and recreates the databases dbatch_bench and dbatch_demo on that server. Needs psql, jq and
# python3. Times are only comparable within one run of this script: read the ratios.
set -euo pipefail
# the demo application does not start without the password of its user (DEMO_PASSWORD)
export DEMO_PASSWORD="${DEMO_PASSWORD:-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}"

out="${1:?usage: compare-before-after.sh OUT_DIR}"
mkdir -p "$out"
: "${BEFORE_APP:?}" "${AFTER_APP:?}"
host="${BENCH_HOST:-127.0.0.1}"
port="${BENCH_PORT:-5432}"
user="${BENCH_USER:-postgres}"
pairs="${PAIRS:-2}"
workloads="${WORKLOADS:-launch-sequential chunk-etl history-lookups purge}"
java_opts="${BENCH_JAVA_OPTS:--Dbenchmark.history.executions=100000}"
demo_starts="${DEMO_STARTS:-3}"

psql_admin() { psql -X -q -At -v ON_ERROR_STOP=1 -h "$host" -p "$port" -U "$user" -d postgres "$@"; }
fresh_database() {
    psql_admin -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1"
}
app_of() { if [[ "$1" == before ]]; then echo "$BEFORE_APP"; else echo "$AFTER_APP"; fi; }
demo_of() { if [[ "$1" == before ]]; then echo "${BEFORE_DEMO:-}"; else echo "${AFTER_DEMO:-}"; fi; }

psql_admin -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
{
    echo "started: $(date -u +%FT%TZ)"
    echo "cores: $(nproc)"
    free -h | sed -n 2p
    echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "server: $(psql_admin -c 'SELECT version()')"
    echo "pairs: $pairs; workloads: $workloads; java options: $java_opts"
} > "$out/env.txt"
: > "$out/results.jsonl"

# 1. The workloads: per round and workload, BEFORE then AFTER, each on a fresh database in a JVM of its own.
for round in $(seq 1 "$pairs"); do
    for workload in $workloads; do
        for variant in before after; do
            fresh_database dbatch_bench
            psql_admin -c "SELECT pg_stat_statements_reset()" > /dev/null
            log="$out/$variant-$round-$workload"
            started=$(date +%s)
            status=0
            BENCH_DB_URL="jdbc:postgresql://$host:$port/dbatch_bench" BENCH_DB_USER="$user" \
                java $java_opts -jar "$(app_of "$variant")/quarkus-run.jar" "$workload" > "$log.json" 2> "$log.log" \
                || status=$?
            echo "$(date -u +%T) round $round $workload $variant: exit $status, $(( $(date +%s) - started )) s, load $(cut -d' ' -f1 /proc/loadavg)" \
                | tee -a "$out/env.txt"
            jq -c --arg variant "$variant" --argjson round "$round" --argjson exit "$status" \
                '. + {variant: $variant, round: $round, exit: $exit}' "$log.json" >> "$out/results.jsonl"
            psql -X -q -A -F $'\t' -h "$host" -p "$port" -U "$user" -d postgres -c "SELECT calls, rows, \
                round(mean_exec_time::numeric * 1000, 1) AS mean_us, left(regexp_replace(query, '\s+', ' ', 'g'), 160) \
                FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'dbatch_bench') \
                ORDER BY calls DESC LIMIT 40" > "$out/pgss-$variant-$round-$workload.txt"
            psql_admin -c "SELECT 'calls of statements on repository tables (bench_): ' || coalesce(sum(calls), 0) \
                FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'dbatch_bench') \
                AND query LIKE '%bench\_%'" >> "$out/pgss-$variant-$round-$workload.txt"
        done
    done
done

# 2. The demo application's startup: "started in X s" as Quarkus logs it, once on a fresh database
#    (the schema migrates) and once on the database that start left (nothing to migrate).
start_demo() { # variant kind index
    local app log pid seconds
    app="$(demo_of "$1")"
    log="$out/demo-$1-$2-$3.log"
    java -Dquarkus.datasource.jdbc.url="jdbc:postgresql://$host:$port/dbatch_demo" \
        -Dquarkus.datasource.username="$user" -Dquarkus.http.port=0 -Ddemo.input-directory="$out/demo-input" \
        -jar "$app/quarkus-run.jar" > "$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do
        if grep -q "started in" "$log" || ! kill -0 "$pid" 2> /dev/null; then break; fi
        sleep 0.2
    done
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    seconds="$(sed -n 's/.* started in \([0-9.]*\)s.*/\1/p' "$log" | head -n 1)"
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${seconds:-failed}" >> "$out/startup.tsv"
}
if [[ -n "${BEFORE_DEMO:-}" && -n "${AFTER_DEMO:-}" ]]; then
    printf 'variant\tdatabase\tstart\tseconds\n' > "$out/startup.tsv"
    for variant in before after; do # untimed: the page cache holds both builds' jars
        fresh_database dbatch_demo
        start_demo "$variant" warmup 0
    done
    for index in $(seq 1 "$demo_starts"); do
        for variant in before after; do
            fresh_database dbatch_demo
            start_demo "$variant" fresh "$index"
            start_demo "$variant" migrated "$index"
        done
    done
fi
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg); ended: $(date -u +%FT%TZ)" >> "$out/env.txt"

# 3. Summary: each figure per round, BEFORE, AFTER and AFTER/BEFORE.
python3 - "$out" << 'EOF' | tee "$out/summary.txt"
import json, sys, statistics
out = sys.argv[1]
runs = [json.loads(line) for line in open(f"{out}/results.jsonl")]
figures = {
    "launch-sequential": [("pgStatementsPerLaunch",), ("jdbcStatementsPerLaunch",), ("commitsPerLaunch",),
                          ("launchesPerSecond",), ("failures",), ("orphans",)],
    "chunk-etl": [("metadataStatementsPerRun",), ("metadataStatementsPerChunk",), ("kernelItemsPerSecond",),
                  ("bareJdbcItemsPerSecond",), ("ratio",), ("jtaJdbcItemsPerSecond",)],
    "history-lookups": [(l, p) for l in ("latestJobExecution", "jobExecutions", "selectOneRoundTrip")
                        for p in ("p50Micros", "p90Micros", "p99Micros")]
                       + [(l, p) for l in ("latestJobExecution", "jobExecutions")
                          for p in ("serverMeanMicros", "jdbcStatementsPerLookup", "plan")],
    "purge": [("instancesPerSecond",), ("batchMsMedian",), ("batchMsMedianPerTenth",), ("jdbcStatementsPerBatch",),
              ("pgStatementsPerBatch",), ("surveyMsMedian",), ("applyMsMedian",)],
}
def get(run, path):
    value = run
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value
for workload, paths in figures.items():
    selected = [r for r in runs if r.get("workload") == workload]
    if not selected:
        continue
    print(f"== {workload}")
    for r in selected:
        if r.get("violations") or r.get("exit"):
            print(f"  round {r['round']} {r['variant']}: exit {r.get('exit')} violations {r.get('violations')}")
    for path in paths:
        name = ".".join(path)
        ratios = []
        cells = []
        for rnd in sorted({r["round"] for r in selected}):
            b = next((get(r, path) for r in selected if r["round"] == rnd and r["variant"] == "before"), None)
            a = next((get(r, path) for r in selected if r["round"] == rnd and r["variant"] == "after"), None)
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b:
                ratios.append(a / b)
                cells.append(f"r{rnd} {b:g} -> {a:g} ({a / b:.3f})")
            else:
                cells.append(f"r{rnd} {b} -> {a}")
        median = f"  median ratio {statistics.median(ratios):.3f}" if ratios else ""
        print(f"  {name}: " + "; ".join(cells) + median)
try:
    rows = [line.rstrip("\n").split("\t") for line in open(f"{out}/startup.tsv")][1:]
    print("== demo startup (s)")
    for kind in ("fresh", "migrated"):
        for variant in ("before", "after"):
            values = [row[3] for row in rows if row[0] == variant and row[1] == kind]
            numbers = [float(v) for v in values if v != "failed"]
            med = f" median {statistics.median(numbers):.3f}" if numbers else ""
            print(f"  {kind} database, {variant}: {', '.join(values)}{med}")
except FileNotFoundError:
    pass
EOF
