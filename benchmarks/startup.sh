#!/usr/bin/env bash
# Startup costs in JVM mode (docs/modules/ROOT/pages/benchmarks.adoc, "Startup"):
#   1. what the extension adds: the startup baseline (benchmarks/startup-baseline: a datasource, Hibernate
#      ORM and one entity) built without and with quarkus-durable-batch, started alternately, STARTS times
#      each, on a database the extension's migrations have already been applied to (they are validated);
#   2. the demo application (module integration-tests): from the process's start to its first job's start,
#      the job (importOrders) launched over HTTP as soon as the application answers.
# Each start is a new JVM. "started in" is Quarkus' own figure; "to log" is the wall-clock time from the
# spawn to that log line, polled every 20 ms, as a script waiting for readiness sees it.
#
#   benchmarks/startup.sh OUT_DIR
#
# Environment:
#   STARTS                 timed starts of each application (default 5; an untimed start of each first)
#   BENCH_HOST, BENCH_PORT, BENCH_USER
#                          PostgreSQL (default 127.0.0.1, 5432, postgres); the databases dbatch_startup and
#                          dbatch_startup_demo are dropped and recreated there
#   BENCH_SKIP_BUILD=1     reuse target/startup/* and integration-tests/target/quarkus-app
#   DEMO_APP               the demo's quarkus-app (default integration-tests/target/quarkus-app); DEMO_APP=none
#                          skips the demo
# Writes OUT_DIR/starts.tsv, OUT_DIR/env.txt and each start's log; prints OUT_DIR/summary.txt. Needs psql,
# curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:?usage: benchmarks/startup.sh OUT_DIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
starts="${STARTS:-5}"
host="${BENCH_HOST:-127.0.0.1}"
port="${BENCH_PORT:-5432}"
user="${BENCH_USER:-postgres}"
demo_app="${DEMO_APP:-integration-tests/target/quarkus-app}"
# the demo's one user, demo, has this password (the demo does not start without it)
export DEMO_PASSWORD="${DEMO_PASSWORD:-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}"
apps=target/startup
demo_port=18089

psql_on() { local database="$1"; shift; psql -X -q -At -v ON_ERROR_STOP=1 -h "$host" -p "$port" -U "$user" -d "$database" "$@"; }
fresh_database() { psql_on postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1"; }
now_ms() { date +%s%3N; }

# 1. The builds: the baseline as it is and with the extension, then the demo.
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
    build() { ./mvnw -B -q -o -Pstartup-baseline -pl benchmarks/startup-baseline -am package -DskipTests \
        -Dmaven.javadoc.skip=true -Dmaven.source.skip=true "$@"; }
    mkdir -p "$apps"
    build && rm -rf "$apps/baseline" && cp -r benchmarks/startup-baseline/target/quarkus-app "$apps/baseline"
    build -Ddurable-batch && rm -rf "$apps/durable-batch" \
        && cp -r benchmarks/startup-baseline/target/quarkus-app "$apps/durable-batch"
    if [[ "$demo_app" == integration-tests/target/quarkus-app ]]; then
        ./mvnw -B -q -o -pl integration-tests -am package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
    fi
fi

{
    echo "started: $(date -u +%FT%TZ); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "server: $(psql_on postgres -c 'SELECT version()')"
    echo "java: $(java -version 2>&1 | head -n 1); starts per application: $starts"
} > "$out/env.txt"
printf 'app\tstart\tstarted_in_s\tto_log_ms\tto_first_job_ms\tload\n' > "$out/starts.tsv"

# One start of an application: waits for "started in" (and, for the demo, for its first job to start
# and end), records the figures, stops the JVM. start_app NAME INDEX QUARKUS_APP [JVM option...]
start_app() {
    local name="$1" index="$2" app="$3" log pid spawned logged="" first_job="" seconds
    shift 3
    log="$out/$name-$index.log"
    spawned="$(now_ms)"
    java "$@" -jar "$app/quarkus-run.jar" > "$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 3000); do
        if grep -qs ' started in ' "$log"; then logged="$(now_ms)"; break; fi
        kill -0 "$pid" 2> /dev/null || break
        sleep 0.02
    done
    if [[ "$name" == demo && -n "$logged" ]]; then
        first_job="$(first_job_start "$index" "$spawned")"
    fi
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    seconds="$(sed -n 's/.* started in \([0-9.]*\)s.*/\1/p' "$log" | head -n 1)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$index" "${seconds:-failed}" "${logged:+$((logged - spawned))}" \
        "$first_job" "$(cut -d' ' -f1 /proc/loadavg)" >> "$out/starts.tsv"
}

# The demo's first job: importOrders launched at once over HTTP (a new day each start, so a new
# instance); prints the milliseconds from the spawn to the execution's started_at (the same host's
# clock), once the job has ended, so that no execution is left running for the next start to recover.
first_job_start() {
    local index="$1" spawned="$2" execution started
    execution="$(curl -s -u "demo:$DEMO_PASSWORD" -X POST -H 'Content-Type: application/json' \
        -d "{\"parameters\":{\"day\":\"2026-01-$(printf %02d "$((index % 28 + 1))")\",\"orders\":100,\"files\":1}}" \
        "http://127.0.0.1:$demo_port/jobs/importOrders/start" | sed -n 's/.*"executionId":\([0-9]*\).*/\1/p')"
    [[ -n "$execution" ]] || return 0
    for _ in $(seq 1 600); do
        started="$(psql_on dbatch_startup_demo -c "SELECT (extract(epoch FROM started_at) * 1000)::bigint \
            FROM dbatch_job_execution WHERE id = $execution AND status IN ('COMPLETED', 'FAILED', 'STOPPED')")"
        if [[ -n "$started" ]]; then echo "$((started - spawned))"; return 0; fi
        sleep 0.1
    done
}

# 2. The baseline and the baseline with the extension, alternating; an untimed start of each first
#    (the page cache, and the extension's migrations).
baseline_options=(-Dquarkus.datasource.jdbc.url="jdbc:postgresql://$host:$port/dbatch_startup" -Dquarkus.datasource.username="$user")
fresh_database dbatch_startup
for index in $(seq 0 "$starts"); do
    for variant in baseline durable-batch; do
        start_app "$variant" "$index" "$apps/$variant" "${baseline_options[@]}"
    done
done

# 3. The demo: an untimed start (it migrates the schema), then the timed ones.
if [[ "$demo_app" != none ]]; then
    fresh_database dbatch_startup_demo
    for index in $(seq 0 "$starts"); do
        start_app demo "$index" "$demo_app" -Dquarkus.datasource.jdbc.url="jdbc:postgresql://$host:$port/dbatch_startup_demo" \
            -Dquarkus.datasource.username="$user" -Dquarkus.http.port="$demo_port" -Ddemo.input-directory="$out/demo-input"
    done
fi
echo "ended: $(date -u +%FT%TZ); load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/env.txt"

# 4. Summary: medians of the timed starts (start 0 is untimed) and what the extension adds.
python3 - "$out" << 'EOF' | tee "$out/summary.txt"
import csv, statistics, sys
out = sys.argv[1]
rows = [r for r in csv.DictReader(open(f"{out}/starts.tsv"), delimiter="\t") if r["start"] != "0"]
def values(app, column):
    return [float(r[column]) for r in rows if r["app"] == app and r[column] not in ("", "failed")]
medians = {}
for app in ("baseline", "durable-batch", "demo"):
    for column, unit in (("started_in_s", "s"), ("to_log_ms", "ms"), ("to_first_job_ms", "ms")):
        found = values(app, column)
        if found:
            medians[app, column] = statistics.median(found)
            print(f"{app} {column}: {', '.join(f'{v:g}' for v in found)}; median {medians[app, column]:g} {unit}")
for column, scale in (("started_in_s", 1000), ("to_log_ms", 1)):
    if ("baseline", column) in medians and ("durable-batch", column) in medians:
        added = (medians["durable-batch", column] - medians["baseline", column]) * scale
        print(f"added by the extension ({column}, difference of the medians): {added:.0f} ms")
pairs = [(b, d) for b, d in zip(values("baseline", "started_in_s"), values("durable-batch", "started_in_s"))]
if pairs:
    print("added per pair (started in, ms): " + ", ".join(f"{(d - b) * 1000:.0f}" for b, d in pairs)
          + f"; median {statistics.median([(d - b) * 1000 for b, d in pairs]):.0f}")
EOF
