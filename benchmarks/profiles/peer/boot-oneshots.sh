#!/usr/bin/env bash
# One-shot runs (start, one batchlet job, exit) of several builds of the peer applications, interleaved,
# for before/after comparisons of the boot (docs/modules/ROOT/pages/benchmarks.adoc, "Issue 29, boot").
#
#   boot-oneshots.sh ROUNDS LABEL=APP_DIR:API:DATABASE ...
#
# APP_DIR is a quarkus-app directory (e.g. a copy of benchmarks/peer/durable/target/quarkus-app made
# before a change), API jakarta or native, DATABASE one of the peer cluster's (PEER_PG_PORT, default
# 55433; run benchmarks/peer/run.sh once to create it). The variants take turns at going first. Prints
# one JSON line per run: label, round, "started in" from the Quarkus log, the process' wall time and
# CPU time (user + system, every thread: steadier than wall time when other work shares the cores), and
# the load average.
set -euo pipefail
rounds=$1
shift
port="${PEER_PG_PORT:-55433}"
variants=("$@")
for round in $(seq 1 "$rounds"); do
    shift_by=$(( (round - 1) % ${#variants[@]} ))
    for variant in "${variants[@]:shift_by}" "${variants[@]:0:shift_by}"; do
        label=${variant%%=*}
        IFS=: read -r app api database <<< "${variant#*=}"
        log="$(mktemp)"
        cpu="$(mktemp)"
        began=$(date +%s%N)
        # shellcheck disable=SC2086
        PEER_DB_URL="jdbc:postgresql://127.0.0.1:$port/$database" /usr/bin/time -f '%U %S' -o "$cpu" \
            java ${JAVA_OPTS:--Xmx1g} -Dpeer.api="$api" -jar "$app/quarkus-run.jar" oneshot > "$log" 2>&1 \
            || echo "failed: $label" >&2
        ended=$(date +%s%N)
        started="$(grep -o 'started in [0-9.]*s' "$log" | head -1 | grep -o '[0-9.]*' | head -1)"
        jq -nc --arg variant "$label" --argjson round "$round" --arg s "${started:-null}" \
            --argjson w "$(( (ended - began) / 1000000 ))" --arg load "$(cut -d' ' -f1 /proc/loadavg)" \
            --arg cpu "$(awk '{print $1 + $2}' "$cpu")" \
            '{"label": $variant, "round": $round, startedInSeconds: ($s | tonumber? // null), wallSeconds: ($w / 1000),
              cpuSeconds: ($cpu | tonumber), load: ($load | tonumber)}'
        rm -f "$log" "$cpu"
    done
done
