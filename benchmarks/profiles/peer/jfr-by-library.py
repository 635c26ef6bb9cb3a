#!/usr/bin/env python3
"""Execution samples of JFR recordings (jfr print --json), classed two ways: by the deepest frame of a known library
(what the CPU was spent in), and by whether a frame of Durable Batch (or JBeret) is anywhere on the stack (on whose
behalf). Usage: jfrsum.py LABEL file.jfr..."""
import json, subprocess, sys, collections
GROUPS = [  # prefix -> group; the deepest (leaf-most) frame that matches names the sample
    ("io.durablebatch.jakarta", "durable-jakarta"), ("io.durablebatch.benchmarks", "benchmark-app"),
    ("io.durablebatch", "durable-kernel"),
    ("org.hibernate", "hibernate"), ("io.quarkus.hibernate", "hibernate"), ("net.bytebuddy", "hibernate"),
    ("io.smallrye.faulttolerance", "fault-tolerance"), ("io.quarkus.smallrye.faulttolerance", "fault-tolerance"),
    ("com.sun.org.apache.xerces", "xml"), ("javax.xml", "xml"), ("com.sun.xml", "xml"),
    ("org.jberet", "jberet"), ("io.quarkiverse.jberet", "jberet"),
    ("io.agroal", "agroal"), ("com.arjuna", "narayana"), ("io.narayana", "narayana"), ("io.quarkus.narayana", "narayana"),
    ("org.postgresql", "postgres-driver"), ("io.vertx", "vertx/netty"), ("io.netty", "vertx/netty"),
    ("io.smallrye.config", "config"), ("io.quarkus.runtime.configuration", "config"),
    ("io.quarkus.arc", "arc"), ("io.quarkus.scheduler", "scheduler"), ("org.jboss.logging", "logging"),
    ("org.jboss.logmanager", "logging"), ("io.quarkus", "quarkus-other"), ("io.smallrye", "smallrye-other"),
]
OWNERS = [("io.durablebatch.benchmarks", None), ("io.durablebatch", "durable"), ("org.jberet", "jberet"),
          ("io.quarkiverse.jberet", "jberet")]
def group(method):
    for prefix, g in GROUPS:
        if method.startswith(prefix):
            return g
    return None
label, files = sys.argv[1], sys.argv[2:]
by_group, by_owner, total = collections.Counter(), collections.Counter(), 0
for f in files:
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "256", "--events", "jdk.ExecutionSample", f],
                         capture_output=True, text=True, check=True).stdout
    for event in json.loads(out)["recording"]["events"]:
        frames = [fr["method"]["type"]["name"].replace("/", ".") for fr in event["values"]["stackTrace"]["frames"]]
        total += 1
        g = next((group(m) for m in frames if group(m)), "jdk")  # frames are leaf first
        by_group[g] += 1
        owner = "other"
        for m in frames:
            hit = next((o for p, o in OWNERS if m.startswith(p)), "none")
            if hit != "none":
                owner = hit or "other"
                if hit:
                    break
        by_owner[owner] += 1
print(f"## {label}: {total} samples in {len(files)} runs")
print("spent in (deepest library frame): " + ", ".join(f"{g} {n} ({n * 100 // total}%)" for g, n in by_group.most_common()))
print("on whose behalf (a frame anywhere on the stack): " + ", ".join(f"{o} {n} ({n * 100 // total}%)" for o, n in by_owner.most_common()))
