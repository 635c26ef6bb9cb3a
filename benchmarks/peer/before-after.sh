#!/usr/bin/env bash
# A change measured on the peer benchmark (benchmarks.adoc, "Peer benchmark"): the Durable Batch
# application built from the base commit (PEER_BEFORE: a copy of its
# benchmarks/peer/durable/target/quarkus-app) and this checkout's build run in one window, fresh JVMs,
# before and after alternating (which goes first changes each round), through the Jakarta layer and
# the native DSL, with quarkus-jberet's application in every round. The machine is shared and noisy:
# only ratios within a round mean much, hence the alternation.
#
#   PEER_BEFORE=/tmp/before/quarkus-app benchmarks/peer/before-after.sh
#
# Environment as benchmarks/peer/run.sh (PEER_PG_PORT, PEER_PG_DIR, PEER_ROUNDS, PEER_WORKLOADS
# (default "launches"), PEER_OPTS, JAVA_OPTS), which sets up the cluster and the databases;
# PEER_JFR_DIR: record each Durable Batch JVM with JFR there (settings benchmarks/profiles/$PEER_JFC,
# default chunk-path.jfc).
# Prints one JSON line per JVM on stderr, with "build" (before, after or peer), and on stdout the
# medians per build and API, the ratios after / before and the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/../.."

before="${PEER_BEFORE:?PEER_BEFORE must name the quarkus-app directory of the before build}"
after=benchmarks/peer/durable/target/quarkus-app
port="${PEER_PG_PORT:-55433}"
rounds="${PEER_ROUNDS:-3}"
java_opts="${JAVA_OPTS:--Xmx1g}"

# the cluster and fresh databases, without runs or a build
PEER_ROUNDS=0 PEER_ONESHOTS=0 PEER_SKIP_BUILD=1 benchmarks/peer/run.sh > /dev/null

# run BUILD APP API WORKLOAD: the JVM's JSON line, with its build
run() {
    local build=$1 app=$2 api=$3 workload=$4 database=peer_durable jfr=() log
    [[ "$build" == peer ]] && database=peer_jberet
    if [[ -n "${PEER_JFR_DIR:-}" && "$build" != peer ]]; then
        mkdir -p "$PEER_JFR_DIR"
        jfr=("-XX:StartFlightRecording=settings=$PWD/benchmarks/profiles/${PEER_JFC:-chunk-path.jfc},filename=$PEER_JFR_DIR/$workload-$api-$build-$(date +%H%M%S).jfr")
    fi
    log="$(mktemp)"
    # shellcheck disable=SC2086
    PEER_DB_URL="jdbc:postgresql://127.0.0.1:$port/$database" java $java_opts "${jfr[@]}" -Dpeer.api="$api" \
        ${PEER_OPTS:-} -jar "$app/quarkus-run.jar" "$workload" > "$log" 2>&1
    jq -c --arg build "$build" --arg load "$(cut -d' ' -f1 /proc/loadavg)" \
        '. + {build: $build, load: ($load | tonumber)}' <<< "$(grep '^{' "$log" | tail -1)"
    rm -f "$log"
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
lines=()
for round in $(seq 1 "$rounds"); do
    for workload in ${PEER_WORKLOADS:-launches}; do
        pair=(before after)
        (( round % 2 == 0 )) && pair=(after before)
        for api in jakarta native; do
            for build in "${pair[@]}"; do
                app=$after
                [[ "$build" == before ]] && app=$before
                lines+=("$(run "$build" "$app" "$api" "$workload")")
                echo "before-after: round $round: ${lines[-1]}" >&2
            done
        done
        lines+=("$(run peer benchmarks/peer/jberet/target/quarkus-app jakarta "$workload")")
        echo "before-after: round $round: ${lines[-1]}" >&2
    done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

printf '%s\n' "${lines[@]}" | jq -s -c --arg before "$load_before" --arg after "$load_after" '
    def median: sort | if length == 0 then null else .[length / 2 | floor] end;
    def med($b; $r; f): map(select(.build == $b and .runtime == $r) | f | select(. != null)) | median;
    def ratio(a; b): if a == null or b == null or b == 0 then null else (a / b * 100 | round / 100) end;
    def figures($b; $r): {cpuMillisPerLaunch: med($b; $r; .cpuMillisPerLaunch), jobsPerSecond: med($b; $r; .jobsPerSecond),
        p50Millis: med($b; $r; .p50Millis), p95Millis: med($b; $r; .p95Millis)};
    {benchmark: "peer before-after", loadBefore: $before, loadAfter: $after,
     jberet: figures("peer"; "quarkus-jberet"),
     jakarta: {before: figures("before"; "durable-batch-jakarta"), after: figures("after"; "durable-batch-jakarta")},
     native: {before: figures("before"; "durable-batch-native"), after: figures("after"; "durable-batch-native")}}
    | .ratios = {jakartaCpu: ratio(.jakarta.after.cpuMillisPerLaunch; .jakarta.before.cpuMillisPerLaunch),
                 jakartaRate: ratio(.jakarta.after.jobsPerSecond; .jakarta.before.jobsPerSecond),
                 nativeCpu: ratio(.native.after.cpuMillisPerLaunch; .native.before.cpuMillisPerLaunch),
                 nativeRate: ratio(.native.after.jobsPerSecond; .native.before.jobsPerSecond),
                 jakartaAfterVsJberetCpu: ratio(.jakarta.after.cpuMillisPerLaunch; .jberet.cpuMillisPerLaunch),
                 jakartaAfterVsJberetRate: ratio(.jakarta.after.jobsPerSecond; .jberet.jobsPerSecond),
                 nativeAfterVsJberetCpu: ratio(.native.after.cpuMillisPerLaunch; .jberet.cpuMillisPerLaunch),
                 nativeAfterVsJberetRate: ratio(.native.after.jobsPerSecond; .jberet.jobsPerSecond)}'
