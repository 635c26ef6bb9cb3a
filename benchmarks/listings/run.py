#!/usr/bin/env python3
"""Every listing the operator REST API and the Dev UI serve, timed under the generic plan.

    benchmarks/listings/run.py [--host H] [--port P] [--user U] [--db D] [--executions N] [--samples S]

Builds the repository's tables (prefix lb_) from the shipped migrations in a database of its own,
stores a history of N executions (default 1,000,000: one instance each over four jobs, one in a
hundred FAILED, three owner tokens in turn, a second apart; an operator and a retention record per
instance, a recovery decision for one in five, a hold for one in a hundred), then times each listing
statement of the statement catalogue (docs/modules/ROOT/pages/statements.adoc, which a test keeps
equal to the code) in one psql session with plan_cache_mode = force_generic_plan: PREPARE, a
warm-up, then S EXECUTEs of the first page and S of pages at random depths, each filter combination
of the execution listing apart. Prints one JSON line per listing x filters x depth: p50/p99/max in
milliseconds as psql's \\timing sees them (round trip over the local socket included), and the load.

Needs only psql (PGPASSWORD for the password). Nothing but the given database is touched; a history
already stored with as many executions is reused.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "runtime/src/main/resources/db/durable-batch"
CATALOGUE = ROOT / "docs/modules/ROOT/pages/statements.adoc"
SCHEMA_MIGRATIONS = ROOT / "runtime/src/main/java/io/durablebatch/runtime/schema/SchemaMigrations.java"
PREFIX = "lb_"
JOBS = ["bench-list-a", "bench-list-b", "bench-list-c", "bench-list-d"]
STATUSES = ["STARTING", "STARTED", "STOPPING", "STOPPED", "FAILED", "COMPLETED", "ABANDONED", "UNKNOWN"]

# Listings the REST API or the Dev UI serve, by catalogue name; a listing statement ("page...") missing
# here fails the run, so a new one cannot escape the benchmark.
LISTINGS = ["AuditTrail.page[operator_request]", "AuditTrail.page[retention_action]",
            "AuditTrail.pageByInstance[operator_request]", "AuditTrail.pageByInstance[retention_action]",
            "JobExecutionListing.pageByOwner", "JobExecutionListing.pageByJob", "JobExecutionListing.pageByStatus",
            "JobInstanceStore.pageByJob", "PartitionStore.page", "RecoveryStore.page", "RecoveryStore.pageByInstance",
            "RetentionHoldStore.page"]

SEED = [
    """INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at)
       SELECT (ARRAY['bench-list-a', 'bench-list-b', 'bench-list-c', 'bench-list-d'])[1 + g % 4],
              int8send(g), sha256(int8send(g)), now() - interval '30 days' + g * interval '1 second'
       FROM generate_series(1, {n}) AS g ORDER BY g""",
    """INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, status, exit_code, created_at, started_at,
           ended_at, last_updated, version, owner_token, owner_claimed_at)
       SELECT i.id, i.job_name, 1, s.status, s.status, i.created_at, i.created_at, i.created_at + interval '1 minute',
              i.created_at + interval '1 minute', 2, 'bench-node-' || i.id % 3, i.created_at
       FROM {p}job_instance i
       CROSS JOIN LATERAL (SELECT CASE WHEN (i.id / 4) % 100 = 7 THEN 'FAILED' ELSE 'COMPLETED' END AS status) s
       ORDER BY i.id""",
    # an instance with many records, for the listings of one instance at depth
    """INSERT INTO {p}operator_request (action, operation_id, actor, job_instance_id, request_digest, outcome, recorded_at)
       SELECT 'START', 'op-' || i.id, 'bench', CASE WHEN i.id % 10 = 0 THEN 1 ELSE i.id END,
              sha256(int8send(i.id)), 'STARTED', i.created_at
       FROM {p}job_instance i ORDER BY i.id""",
    """INSERT INTO {p}retention_action (action, operation_id, actor, job_instance_id, request_digest, outcome, recorded_at)
       SELECT 'PURGE', 'purge-' || i.id, 'bench', CASE WHEN i.id % 10 = 0 THEN 1 ELSE i.id END,
              sha256(int8send(i.id)), 'PURGED', i.created_at
       FROM {p}job_instance i ORDER BY i.id""",
    """INSERT INTO {p}recovery_decision (job_execution_id, job_instance_id, operation_id, actor, reason, resolution,
           observed_status, observed_version, resulting_version, resolved_steps, decided_at)
       SELECT e.id, CASE WHEN e.id % 10 = 0 THEN 1 ELSE e.job_instance_id END, 'rec-' || e.id, 'bench', 'OWNER_LOST',
              'FAILED', 'STARTED', 1, 2, 0, e.created_at
       FROM {p}job_execution e WHERE e.id % 5 = 0 ORDER BY e.id""",
    """INSERT INTO {p}retention_hold (job_instance_id, actor, reason, placed_at)
       SELECT i.id, 'bench', 'AUDIT', i.created_at FROM {p}job_instance i WHERE i.id % 100 = 0""",
    "VACUUM ANALYZE {p}job_instance, {p}job_execution, {p}operator_request, {p}retention_action, "
    "{p}recovery_decision, {p}retention_hold",
]


def psql(args, sql, timing=False):
    command = ["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", args.host, "-p", str(args.port), "-U",
               args.user, "-d", args.db]
    result = subprocess.run(command, input=sql, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("psql failed: " + result.stderr[-2000:])
    return result.stdout


def scripts():
    names = re.findall(r'"(V\d+__\w+\.sql)"', SCHEMA_MIGRATIONS.read_text())
    return [MIGRATIONS / name for name in names]


def store_history(args):
    exists = psql(args, f"SELECT to_regclass('{PREFIX}job_execution') IS NOT NULL").strip() == "t"
    if exists and int(psql(args, f"SELECT count(*) FROM {PREFIX}job_execution").strip()) == args.executions:
        return 0.0
    started = time.monotonic()
    tables = psql(args, f"SELECT string_agg(tablename, ', ') FROM pg_tables WHERE tablename LIKE '{PREFIX}%'").strip()
    if tables:
        psql(args, f"DROP TABLE {tables} CASCADE")
    for script in scripts():
        psql(args, script.read_text().replace("${prefix}", PREFIX))
    for sql in SEED:
        psql(args, sql.format(p=PREFIX, n=args.executions))
    return time.monotonic() - started


def catalogue():
    """The listing statements of the catalogue, by store.name, with PostgreSQL's numbered parameters."""
    statements = {}
    store = None
    lines = CATALOGUE.read_text().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("== "):
            store = line[3:].strip()
        elif line.startswith("=== page"):
            source = lines.index("[source,sql]", i)
            end = lines.index("----", source + 2)
            text = "\n".join(lines[source + 2:end]).replace("dbatch_", PREFIX)
            names = []
            def number(match):
                if match.group(1) not in names:
                    names.append(match.group(1))
                return "$" + str(names.index(match.group(1)) + 1)
            numbered = re.sub(r"(?<![:\w]):(\w+)", number, text)
            statements[store + "." + line[4:].strip()] = (numbered, names)
            i = end
        i += 1
    return statements


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def time_pages(args, name, numbered, names, calls):
    """Prepares once, warms up, then runs each call (a dict of SQL literals by parameter) timed."""
    def execute(values):
        return "EXECUTE listing(" + ", ".join(values.get(n, "NULL") for n in names) + ");\n"
    script = ["SET plan_cache_mode = force_generic_plan;\n", f"PREPARE listing AS {numbered};\n"]
    script += [execute(calls[i % len(calls)]) for i in range(min(50, len(calls)))]
    script.append("\\o /dev/null\n\\timing on\n")
    script += [execute(values) for values in calls]
    # the plan, and the buffers a page touches (independent of the load): the first call's, and the
    # most of any call
    plan = psql(args, "SET plan_cache_mode = force_generic_plan;\n" + f"PREPARE listing AS {numbered};\n"
                + "".join("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) " + execute(values)
                          for values in calls[:20]))
    buffers, top = [], False
    for line in plan.splitlines():
        if "(actual rows" in line and not line.startswith(" "):
            top = True
        elif top and "Buffers:" in line:
            buffers.append(sum(int(n) for n in re.findall(r"(?:hit|read)=(\d+)", line)))
            top = False
    buffers = buffers or [0]
    output = psql(args, "".join(script))
    millis = [float(m) for m in re.findall(r"^Time: ([\d.]+) ms", output, re.M)]
    if len(millis) != len(calls):
        sys.exit(f"{name}: {len(millis)} timings for {len(calls)} pages")
    walks = sorted(set(re.findall(r"Scan(?: Backward)? using (\w+)", plan)))
    return {"p50Millis": round(quantile(millis, 50), 3), "p99Millis": round(quantile(millis, 99), 3),
            "maxMillis": round(max(millis), 3), "maxBuffers": max(buffers), "walks": walks,
            "seqScan": "Seq Scan" in plan}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5432)
    parser.add_argument("--user", default="postgres")
    parser.add_argument("--db", default="bench_listing")
    parser.add_argument("--executions", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--only", default="", help="run only the listings whose name contains this")
    args = parser.parse_args()

    load_seconds = store_history(args)
    statements = catalogue()
    listed = sorted(name for name in statements)
    if listed != sorted(LISTINGS):
        sys.exit(f"the catalogue's listings {listed} differ from those benchmarked {sorted(LISTINGS)}")
    rnd = random.Random(20261205)
    low, high, oldest, newest = map(int, psql(args, f"""SELECT min(id), max(id),
        (extract(epoch FROM min(created_at)) * 1000000)::bigint, (extract(epoch FROM max(created_at)) * 1000000)::bigint
        FROM {PREFIX}job_execution""").split("|"))
    depth_ids = [low + (high - low) // 4 + rnd.randrange((high - low) // 2) for _ in range(args.samples)]
    created = dict((int(i), int(m)) for i, m in (row.split("|") for row in psql(args, f"""SELECT id,
        (extract(epoch FROM created_at) * 1000000)::bigint FROM {PREFIX}job_execution
        WHERE id = ANY (ARRAY[{','.join(map(str, depth_ids))}])""").split()))
    some_instance = int(psql(args, f"SELECT min(id) FROM {PREFIX}job_instance").strip())
    header = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "host": args.host, "port": args.port,
              "executions": args.executions, "loadSeconds": round(load_seconds, 1), "samples": args.samples,
              "server": psql(args, "SHOW server_version").strip(), "loadAverage": os.getloadavg()}
    print(json.dumps({"listings": header}), flush=True)

    def ts(micros):
        return f"(timestamptz 'epoch' + {micros} * interval '1 microsecond')"

    span = newest - oldest
    filters = {"Job": ("job", f"'{JOBS[1]}'"), "Failed": ("statuses", "ARRAY['FAILED']"),
               "From": ("createdFrom", ts(oldest + span // 10)), "Before": ("createdBefore", oldest + span * 9 // 10),
               "Owner": ("owner", "'bench-node-1'")}
    kinds = []
    for combination in range(1 << len(filters)):
        given = [f for i, f in enumerate(filters) if combination & 1 << i]
        walk = "pageByOwner" if "Owner" in given else "pageByJob" if "Job" in given else "pageByStatus"
        for deep in (False, True):
            calls = []
            for sample in range(args.samples):
                values = {"statuses": "ARRAY[" + ", ".join(f"'{s}'" for s in STATUSES) + "]", "limit": "51",
                          "untilCreated": "NULL", "untilId": str(2 ** 63 - 1)}
                until = None
                if deep:
                    until = (created[depth_ids[sample]], depth_ids[sample])
                for f in given:
                    name, value = filters[f]
                    if name == "createdBefore":
                        if until is None or (value, -2 ** 63) < until:
                            until = (value, -2 ** 63)
                    else:
                        values[name] = value
                if until is not None:
                    values["untilCreated"], values["untilId"] = ts(until[0]), str(until[1])
                calls.append(values)
            kinds.append(("JobExecutionListing." + walk, "all" + "".join(given) + ("Deep" if deep else ""), calls))

    def simple(listing, label, values_of):
        for deep in (False, True):
            calls = [dict(values_of(sample, deep), limit="51") for sample in range(args.samples)]
            kinds.append((listing, label + ("Deep" if deep else ""), calls))

    def after(sample, deep):
        return str(depth_ids[sample]) if deep else str(2 ** 63 - 1)
    simple("JobInstanceStore.pageByJob", "instancesOfJob", lambda s, d: {"job": f"'{JOBS[1]}'", "after": after(s, d)})
    for table in ("operator_request", "retention_action"):
        simple(f"AuditTrail.page[{table}]", f"audit[{table}]", lambda s, d: {"after": after(s, d)})
        simple(f"AuditTrail.pageByInstance[{table}]", f"auditOfInstance[{table}]",
               lambda s, d: {"jobInstanceId": str(some_instance), "after": after(s, d)})
    simple("RecoveryStore.page", "recoveries", lambda s, d: {"after": after(s, d)})
    simple("RecoveryStore.pageByInstance", "recoveriesOfInstance",
           lambda s, d: {"jobInstanceId": str(some_instance), "after": after(s, d)})
    simple("RetentionHoldStore.page", "holds", lambda s, d: {"after": after(s, d)})
    # partitions: a plan of one parent (none stored here: a plan is at most a few thousand rows, its key unique)
    simple("PartitionStore.page", "partitions", lambda s, d: {"parentId": "1", "after": "-1" if not d else "100"})

    for listing, label, calls in kinds:
        if args.only and args.only not in listing + label:
            continue
        numbered, names = statements[listing]
        figures = time_pages(args, label, numbered, names, calls)
        print(json.dumps({"listing": listing, "kind": label, **figures}), flush=True)


if __name__ == "__main__":
    main()
