#!/usr/bin/env bash
# Before/after of the chunk path (benchmarks.adoc, "Issue 29, the chunk path against quarkus-jberet"):
# fresh JVMs alternating in one window, the order rotating each round: quarkus-jberet, Durable Batch's
# Jakarta layer and native DSL from two builds of benchmarks/peer (BEFORE and AFTER: copies of
# benchmarks/peer/{jberet,durable}/target/quarkus-app), and the ceiling (-Dpeer.api=bare, AFTER's).
# One JSON line per JVM on stdout, with the 1-minute load average at its start. The databases
# peer_jberet and peer_durable must exist on PORT (benchmarks/peer/run.sh creates them).
set -uo pipefail
port=${PORT:-55443}; items=${ITEMS:-1000000}; rounds=${ROUNDS:-3}
before=${BEFORE:-/tmp/chunk-before}; after=${AFTER:-/tmp/chunk-after}
variants=(jberet:jakarta:$before/jberet before:jakarta:$before/durable after:jakarta:$after/durable
          before:native:$before/durable after:native:$after/durable bare:bare:$after/durable)
for r in $(seq 1 "$rounds"); do
  n=${#variants[@]}; s=$(( (r - 1) % n ))
  order=("${variants[@]:s}" "${variants[@]:0:s}")
  for v in "${order[@]}"; do
    IFS=: read -r label api app <<< "$v"
    db=peer_durable; [[ $label == jberet ]] && db=peer_jberet
    load=$(cut -d' ' -f1 /proc/loadavg)
    line=$(PEER_DB_URL="jdbc:postgresql://127.0.0.1:$port/$db" java -Xmx1g -Dpeer.api="$api" -Dpeer.items="$items" \
        -jar "$app/quarkus-run.jar" chunk 2>&1 | grep '^{' | tail -1)
    echo "{\"round\":$r,\"label\":\"$label\",\"api\":\"$api\",\"at\":\"$(date -u +%H:%M:%S)\",\"load\":$load,\"run\":$line}"
  done
done
