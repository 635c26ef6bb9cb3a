#!/usr/bin/env bash
# The peer benchmark (docs/modules/ROOT/pages/benchmarks.adoc, "Peer benchmark"): the same two job
# XMLs and batch artifacts (benchmarks/peer/jobs, benchmarks/peer/artifacts) in two Quarkus
# command-mode applications, quarkus-jberet with its JDBC repository (benchmarks/peer/jberet) and
# Durable Batch's Jakarta module (benchmarks/peer/durable), each on its own database of one
# PostgreSQL. Every run is a fresh JVM; the two alternate (the first of a pair changes each round).
#
#   benchmarks/run.sh peer        (or benchmarks/peer/run.sh)
#
# The same work also runs through the native DSL (the Durable Batch application with -Dpeer.api=native,
# the jobs of benchmarks/peer/durable's NativeLaunches, launched and awaited by the native operator).
# Prints one JSON line per JVM on stderr and a summary on stdout: medians, ratios (Durable Batch /
# quarkus-jberet; above 1 is faster, for p95 and times below 1 is better), JVM CPU, statements and
# commits per chunk and per launch (first round; pg_stat_statements), "started in", one-shot times
# and the load average before and after.
#
# Spring Batch 6 runs the same workloads with the same artifacts too (benchmarks/peer/spring, a plain
# Java command on Spring Batch's JDBC job repository, variant spring:native); the summary's ratios
# durableOverSpring and nativeOverSpring compare with it. The workload launches-concurrent (not run by
# default) starts the launches from -Dpeer.threads=8 threads at once.
#
# The start of an application that already has Hibernate ORM, as most Quarkus applications with a database
# do: the variants jberet-orm:jakarta (benchmarks/peer/jberet with Hibernate ORM and an entity of the
# application's own, benchmarks/peer/app-entity, which no job uses) and durable-entity:jakarta or :native
# (benchmarks/peer/durable with the same entity, in the persistence unit the repository's entities are in);
# not run by default. The summary's overJberetOrm compares starts and one-shots with jberet-orm, e.g.
#
#   PEER_WORKLOADS="" PEER_ONESHOTS=5 \
#       PEER_VARIANTS="jberet:jakarta jberet-orm:jakarta durable:jakarta durable-entity:jakarta" benchmarks/peer/run.sh
#
# PostgreSQL: a private cluster (PEER_PG_DIR, default /tmp/durable-batch-peer-pg, port PEER_PG_PORT,
# default 55433) with pg_stat_statements preloaded is created and started when none answers on that
# port; it is left running (pg_ctl -D "$PEER_PG_DIR/data" stop). Environment: PEER_ROUNDS (3),
# PEER_ONESHOTS (3 per variant), PEER_WORKLOADS ("chunk launches"; "" for the one-shot runs only),
# PEER_VARIANTS (default: the five above), PEER_SKIP_BUILD=1, JAVA_OPTS (default -Xmx1g); sizes as
# -Dpeer.items=1000000 -Dpeer.warmup-items=50000 -Dpeer.launches=2000 -Dpeer.warmup-launches=200.
set -euo pipefail
cd "$(dirname "$0")/../.."

port="${PEER_PG_PORT:-55433}"
dir="${PEER_PG_DIR:-/tmp/durable-batch-peer-pg}"
bin=/usr/lib/postgresql/15/bin
rounds="${PEER_ROUNDS:-3}"
oneshots="${PEER_ONESHOTS:-3}"
java_opts="${JAVA_OPTS:--Xmx1g}"
# What runs: application:API, the application a directory of benchmarks/peer (native: the same jobs written with
# the native DSL, in a Durable Batch application; bare: the chunk workload's ceiling, the same artifacts in a
# plain loop without a batch runtime, chunk only)
variants=(${PEER_VARIANTS:-jberet:jakarta durable:jakarta durable:native durable:bare spring:native})
runtimes=()
for variant in "${variants[@]}"; do
    [[ " ${runtimes[*]} " == *" ${variant%%:*} "* ]] || runtimes+=("${variant%%:*}")
done
database() {
    echo "peer_${1//-/_}"
}

as_postgres() {
    if [[ "$(id -u)" == 0 ]]; then su postgres -c "$*"; else bash -c "$*"; fi
}
psql_at() {
    psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres "$@"
}

# 1. The cluster, with pg_stat_statements preloaded.
if ! pg_isready -q -h 127.0.0.1 -p "$port"; then
    if [[ ! -d "$dir/data" ]]; then
        mkdir -p "$dir"
        [[ "$(id -u)" == 0 ]] && chown postgres "$dir"
        as_postgres "$bin/initdb -D $dir/data -U postgres --auth=trust -E UTF8 > $dir/initdb.log"
        printf '%s\n' "port = $port" "listen_addresses = '127.0.0.1'" "unix_socket_directories = '$dir'" \
            "shared_preload_libraries = 'pg_stat_statements'" "shared_buffers = 256MB" >> "$dir/data/postgresql.conf"
    fi
    as_postgres "$bin/pg_ctl -D $dir/data -l $dir/log -w start" > /dev/null
fi

# 2. One database per runtime, new for each run of this script.
for runtime in "${runtimes[@]}"; do
    psql_at -d postgres -c "DROP DATABASE IF EXISTS $(database "$runtime")" -c "CREATE DATABASE $(database "$runtime")"
    psql_at -d "$(database "$runtime")" -c "CREATE EXTENSION pg_stat_statements"
done

# 3. The applications (and the extension they use).
if [[ "${PEER_SKIP_BUILD:-0}" != 1 ]]; then
    ./mvnw -B -q -Ppeer-orm -pl "$(printf 'benchmarks/peer/%s\n' "${runtimes[@]}" | paste -sd,)" -am package -DskipTests \
        -Dmaven.javadoc.skip=true -Dmaven.source.skip=true >&2
fi

# 4. Runs: run VARIANT WORKLOAD [JVM option...] prints the JVM's JSON line, with "startedInSeconds"
#    from the Quarkus log, "wallSeconds" of the whole process and its "cpuSeconds" (user + system, every
#    thread: steadier than wall time when other work shares the cores).
run() {
    local runtime=${1%%:*} api=${1#*:} workload=$2 log cpu started ended line
    local jar="benchmarks/peer/$runtime/target/quarkus-app/quarkus-run.jar"
    [[ $runtime == spring ]] && jar=benchmarks/peer/spring/target/peer-spring.jar
    shift 2
    log="$(mktemp)"
    cpu="$(mktemp)"
    started=$(date +%s%N)
    # shellcheck disable=SC2086
    PEER_DB_URL="jdbc:postgresql://127.0.0.1:$port/$(database "$runtime")" /usr/bin/time -f '%U %S' -o "$cpu" \
        java $java_opts -Dpeer.api="$api" "$@" -jar "$jar" "$workload" > "$log" 2>&1
    ended=$(date +%s%N)
    line="$(grep '^{' "$log" | tail -1)"
    local startup
    startup="$(grep -o 'started in [0-9.]*s' "$log" | head -1 | grep -o '[0-9.]*' | head -1)"
    jq -c --arg s "${startup:-null}" --argjson w "$(( (ended - started) / 1000000 ))" \
        --arg cpu "$(awk '{print $1 + $2}' "$cpu")" \
        '. + {startedInSeconds: ($s | tonumber? // null), wallSeconds: ($w / 1000), cpuSeconds: ($cpu | tonumber)}' <<< "$line"
    rm -f "$log" "$cpu"
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
lines=()
for round in $(seq 1 "$rounds"); do
    # the variants take turns at going first
    shift_by=$(( (round - 1) % ${#variants[@]} ))
    order=("${variants[@]:shift_by}" "${variants[@]:0:shift_by}")
    stats=false
    (( round == 1 )) && stats=true
    for workload in ${PEER_WORKLOADS-chunk launches}; do
        for runtime in "${order[@]}"; do
            [[ "$runtime" == *:bare && "$workload" != chunk ]] && continue
            lines+=("$(run "$runtime" "$workload" -Dpeer.stats=$stats ${PEER_OPTS:-})")
            echo "peer: round $round $runtime $workload: ${lines[-1]}" >&2
        done
    done
done
# A first start on a new database creates the schema, which is not the common start: with no workload run
# before, one unrecorded one-shot of each variant does that.
if [[ -z "${PEER_WORKLOADS-chunk launches}" ]]; then
    for runtime in "${variants[@]}"; do
        [[ "$runtime" == *:bare ]] || run "$runtime" oneshot > /dev/null
    done
fi
for i in $(seq 1 "$oneshots"); do
    for runtime in "${variants[@]}"; do
        [[ "$runtime" == *:bare ]] && continue
        lines+=("$(run "$runtime" oneshot)")
        echo "peer: one-shot $i $runtime: ${lines[-1]}" >&2
    done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# 5. The summary: medians per runtime, ratios Durable Batch / quarkus-jberet.
printf '%s\n' "${lines[@]}" | jq -s -c --arg before "$load_before" --arg after "$load_after" \
    --arg cores "$(nproc)" '
    def median: sort | if length == 0 then null else .[length / 2 | floor] end;
    def of($r; $w): map(select(.runtime == $r and .workload == $w));
    def med($r; $w; f): of($r; $w) | map(f | select(. != null)) | median;
    def first($r; $w; f): of($r; $w) | map(f | select(. != null)) | .[0];
    def ratio(a; b): if a == null or b == null or b == 0 then null else (a / b * 100 | round / 100) end;
    "quarkus-jberet" as $j | "durable-batch-jakarta" as $d | "durable-batch-native" as $n | "durable-batch-bare" as $b
    | "spring-batch" as $s | . as $all
    | {benchmark: "peer", rounds: (of($j; "chunk") | length), cores: ($cores | tonumber),
       loadBefore: $before, loadAfter: $after,
       chunk: {itemsPerSecond: {jberet: med($j; "chunk"; .itemsPerSecond), durable: med($d; "chunk"; .itemsPerSecond), native: med($n; "chunk"; .itemsPerSecond), bare: med($b; "chunk"; .itemsPerSecond)},
               cpuMillisPerChunk: {jberet: med($j; "chunk"; .cpuMillisPerChunk), durable: med($d; "chunk"; .cpuMillisPerChunk), native: med($n; "chunk"; .cpuMillisPerChunk), bare: med($b; "chunk"; .cpuMillisPerChunk)},
               statementsPerChunk: {jberet: first($j; "chunk"; .statementsPerChunk), durable: first($d; "chunk"; .statementsPerChunk), native: first($n; "chunk"; .statementsPerChunk)},
               commitsPerChunk: {jberet: first($j; "chunk"; .commitsPerChunk), durable: first($d; "chunk"; .commitsPerChunk), native: first($n; "chunk"; .commitsPerChunk)}},
       launch: {jobsPerSecond: {jberet: med($j; "launches"; .jobsPerSecond), durable: med($d; "launches"; .jobsPerSecond), native: med($n; "launches"; .jobsPerSecond)},
                p95Millis: {jberet: med($j; "launches"; .p95Millis), durable: med($d; "launches"; .p95Millis), native: med($n; "launches"; .p95Millis)},
                cpuMillisPerLaunch: {jberet: med($j; "launches"; .cpuMillisPerLaunch), durable: med($d; "launches"; .cpuMillisPerLaunch), native: med($n; "launches"; .cpuMillisPerLaunch)},
                statementsPerLaunch: {jberet: first($j; "launches"; .statementsPerLaunch), durable: first($d; "launches"; .statementsPerLaunch), native: first($n; "launches"; .statementsPerLaunch)},
                commitsPerLaunch: {jberet: first($j; "launches"; .commitsPerLaunch), durable: first($d; "launches"; .commitsPerLaunch), native: first($n; "launches"; .commitsPerLaunch)}},
       startedInSeconds: {jberet: (map(select(.runtime == $j)) | map(.startedInSeconds) | median),
                          durable: (map(select(.runtime == $d)) | map(.startedInSeconds) | median),
                          native: (map(select(.runtime == $n)) | map(.startedInSeconds) | median)},
       oneShotSeconds: {jberet: med($j; "oneshot"; .wallSeconds), durable: med($d; "oneshot"; .wallSeconds), native: med($n; "oneshot"; .wallSeconds)}}
    | .ratios = {chunk: ratio(.chunk.itemsPerSecond.durable; .chunk.itemsPerSecond.jberet),
                 launch: ratio(.launch.jobsPerSecond.durable; .launch.jobsPerSecond.jberet),
                 launchP95: ratio(.launch.p95Millis.durable; .launch.p95Millis.jberet),
                 cpuPerChunk: ratio(.chunk.cpuMillisPerChunk.durable; .chunk.cpuMillisPerChunk.jberet),
                 cpuPerLaunch: ratio(.launch.cpuMillisPerLaunch.durable; .launch.cpuMillisPerLaunch.jberet),
                 startedIn: ratio(.startedInSeconds.durable; .startedInSeconds.jberet),
                 oneShot: ratio(.oneShotSeconds.durable; .oneShotSeconds.jberet),
                 nativeChunk: ratio(.chunk.itemsPerSecond.native; .chunk.itemsPerSecond.jberet),
                 nativeLaunch: ratio(.launch.jobsPerSecond.native; .launch.jobsPerSecond.jberet),
                 nativeCpuPerChunk: ratio(.chunk.cpuMillisPerChunk.native; .chunk.cpuMillisPerChunk.jberet),
                 nativeCpuPerLaunch: ratio(.launch.cpuMillisPerLaunch.native; .launch.cpuMillisPerLaunch.jberet)}
    | .chunk |= with_entries(.key as $k | .value.spring = ($all | if ($k | test("^(statements|commits)")) then first($s; "chunk"; .[$k]) else med($s; "chunk"; .[$k]) end))
    | .launch |= with_entries(.key as $k | .value.spring = ($all | if ($k | test("^(statements|commits)")) then first($s; "launches"; .[$k]) else med($s; "launches"; .[$k]) end))
    | .startedInSeconds.spring = ($all | map(select(.runtime == $s)) | map(.startedInSeconds) | median)
    | .oneShotSeconds.spring = ($all | med($s; "oneshot"; .wallSeconds))
    | .oneShotCpuSeconds = ($all | {jberet: med($j; "oneshot"; .cpuSeconds), durable: med($d; "oneshot"; .cpuSeconds),
                                    native: med($n; "oneshot"; .cpuSeconds), spring: med($s; "oneshot"; .cpuSeconds)})
    # the applications with an entity of their own (Hibernate ORM booted in both), and the ratios to
    # quarkus-jberet with it: the start a Quarkus application with a database compares
    | ($all | [[$j + "+app-entity", "jberetOrm"], [$d + "+app-entity", "durableEntity"], [$n + "+app-entity", "nativeEntity"]]
        | map(.[0] as $r | .[1] as $key | $all | {key: $key, value: {
            startedInSeconds: (map(select(.runtime == $r)) | map(.startedInSeconds) | median),
            oneShotSeconds: med($r; "oneshot"; .wallSeconds), oneShotCpuSeconds: med($r; "oneshot"; .cpuSeconds)}})
        | from_entries) as $entity
    | .startedInSeconds += ($entity | map_values(.startedInSeconds))
    | .oneShotSeconds += ($entity | map_values(.oneShotSeconds))
    | .oneShotCpuSeconds += ($entity | map_values(.oneShotCpuSeconds))
    | . as $sum | def overJberetOrm(f): ($sum | f) as $times | ["durable", "native", "durableEntity", "nativeEntity"]
        | map({key: ., value: ratio($times[.]; $times.jberetOrm)}) | from_entries;
      .ratios.overJberetOrm = {startedIn: overJberetOrm(.startedInSeconds), oneShot: overJberetOrm(.oneShotSeconds),
                               oneShotCpu: overJberetOrm(.oneShotCpuSeconds)}
    | .launchConcurrent = ($all | [[$j, "jberet"], [$d, "durable"], [$n, "native"], [$s, "spring"]]
        | map(.[0] as $r | .[1] as $key | $all | {key: $key, value: {jobsPerSecond: med($r; "launches-concurrent"; .jobsPerSecond),
            completedPerSecond: med($r; "launches-concurrent"; .jobsPerSecond * (.launches - .failures) / .launches * 10 | round / 10),
            p95Millis: med($r; "launches-concurrent"; .p95Millis), cpuMillisPerLaunch: med($r; "launches-concurrent"; .cpuMillisPerLaunch),
            failures: med($r; "launches-concurrent"; .failures), statementsPerLaunch: first($r; "launches-concurrent"; .statementsPerLaunch),
            commitsPerLaunch: first($r; "launches-concurrent"; .commitsPerLaunch)}})
        | from_entries)
    # against Spring Batch: above 1 is faster; for p95, CPU and times below 1 is better
    | . as $sum | def vs($a): {chunk: ratio($sum.chunk.itemsPerSecond[$a]; $sum.chunk.itemsPerSecond.spring),
            launch: ratio($sum.launch.jobsPerSecond[$a]; $sum.launch.jobsPerSecond.spring),
            launchP95: ratio($sum.launch.p95Millis[$a]; $sum.launch.p95Millis.spring),
            launchConcurrent: ratio($sum.launchConcurrent[$a].completedPerSecond; $sum.launchConcurrent.spring.completedPerSecond),
            cpuPerChunk: ratio($sum.chunk.cpuMillisPerChunk[$a]; $sum.chunk.cpuMillisPerChunk.spring),
            cpuPerLaunch: ratio($sum.launch.cpuMillisPerLaunch[$a]; $sum.launch.cpuMillisPerLaunch.spring),
            startedIn: ratio($sum.startedInSeconds[$a]; $sum.startedInSeconds.spring),
            oneShot: ratio($sum.oneShotSeconds[$a]; $sum.oneShotSeconds.spring)};
      .ratios.durableOverSpring = vs("durable") | .ratios.nativeOverSpring = vs("native")
    # how close each runtime comes to the chunk ceiling, and the most any could gain over quarkus-jberet
    | .toCeiling = {jberet: ratio(.chunk.itemsPerSecond.jberet; .chunk.itemsPerSecond.bare),
                    durable: ratio(.chunk.itemsPerSecond.durable; .chunk.itemsPerSecond.bare),
                    native: ratio(.chunk.itemsPerSecond.native; .chunk.itemsPerSecond.bare),
                    ceilingOverJberet: ratio(.chunk.itemsPerSecond.bare; .chunk.itemsPerSecond.jberet)}'
