#!/usr/bin/env bash
# Where a chunk's JVM CPU goes, by thread (benchmarks.adoc, "Issue 29, the Jakarta chunk's extra CPU,
# explained"): quarkus-jberet, Durable Batch's Jakarta layer and its native DSL, fresh JVMs taking turns
# at going first, each with -Dpeer.thread-cpu=true (PeerWorkloads: CPU per chunk by thread from
# /proc/self/task, collections, allocation). Each warm-up of WARMUPS runs every round: the benchmark's
# 50,000 items (its timed window then holds most of the JIT's work) and 1,000,000 (closer to steady state).
# One JSON line per JVM on stdout, with the 1-minute load average at its start. APPS holds the builds'
# quarkus-app directories as jberet/ and durable/ (copies of benchmarks/peer/{jberet,durable}/target/
# quarkus-app); the databases peer_jberet and peer_durable must exist on PORT (benchmarks/peer/run.sh).
# Past the JIT's warm-up (benchmarks.adoc, "Steady state: where the execution thread's CPU goes"):
# VARIANTS (e.g. adding durable:bare, the ceiling), WORKLOAD=launches (WARMUPS then counts warm-up launches,
# LAUNCHES the timed ones) and JFR=<dir>, which records each JVM with benchmarks/profiles/chunk-threads.jfc
# into <dir>/<round>-<warm-up>-<runtime>-<api>.jfr, its JSON line beside it (for jfr_diff.py).
set -uo pipefail
port=${PORT:-55441}; items=${ITEMS:-1000000}; rounds=${ROUNDS:-2}; apps=${APPS:-/tmp/chunk-threads}
workload=${WORKLOAD:-chunk}; launches=${LAUNCHES:-3000}; jfc="$(cd "$(dirname "$0")/.." && pwd)/chunk-threads.jfc"
read -r -a variants <<< "${VARIANTS:-jberet:jakarta durable:jakarta durable:native}"
for r in $(seq 1 "$rounds"); do
  for warmup in ${WARMUPS:-50000 1000000}; do
    n=${#variants[@]}; s=$(( (r - 1) % n ))
    for v in "${variants[@]:s}" "${variants[@]:0:s}"; do
      IFS=: read -r runtime api <<< "$v"
      load=$(cut -d' ' -f1 /proc/loadavg)
      name="$r-$warmup-$runtime-$api"; record=()
      [[ -n "${JFR:-}" ]] && record=("-XX:StartFlightRecording=settings=$jfc,filename=$JFR/$name.jfr")
      line=$(PEER_DB_URL="jdbc:postgresql://127.0.0.1:$port/peer_$runtime" java -Xmx1g -Dpeer.thread-cpu=true "${record[@]}" \
          -Dpeer.api="$api" -Dpeer.items="$items" -Dpeer.warmup-items="$warmup" -Dpeer.launches="$launches" \
          -Dpeer.warmup-launches="$warmup" -jar "$apps/$runtime/quarkus-run.jar" "$workload" 2>&1 \
          | grep '^{' | tail -1)
      [[ -n "${JFR:-}" ]] && echo "$line" > "$JFR/$name.json"
      echo "{\"round\":$r,\"warmupItems\":$warmup,\"at\":\"$(date -u +%H:%M:%S)\",\"load\":$load,\"run\":$line}"
    done
  done
done
