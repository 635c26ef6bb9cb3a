#!/usr/bin/env python3
"""Every listing the operator REST API and the Dev UI serve, timed under the generic plan.

    benchmarks/listings/run.py [--host H] [--port P] [--user U] [--db D] [--executions N] [--samples S]
                               [--only TEXT] [--write-rounds R] [--write-launches L]

Builds the repository's tables (prefix lb_) from the shipped migrations in a database of its own,
stores a history of N executions (default 1,000,000: one instance each over four jobs, one in a
hundred FAILED, three owner tokens in turn, a second apart, one step each; an operator and a
retention record per instance, a recovery decision for one in five, a hold for one in a hundred;
four schedules and N/10 schedule events), then times each listing statement of the statement
catalogue (docs/modules/ROOT/pages/statements.adoc, which a test keeps equal to the code) in one
psql session with plan_cache_mode = force_generic_plan: PREPARE, a warm-up, then S EXECUTEs of the
first page and S of pages at random depths, each filter combination of the execution listing
apart, narrow time ranges and a job its owner never ran; then the detail views (an execution, an
instance, the schedules, a schedule's events) and the Dev UI's executions page as the statements
each request runs, summed. Prints one JSON line per kind (p50/p99/max in milliseconds as psql's
\\timing sees them, round trip over the local socket included; the most buffers of 20 requests; the
indexes walked), then a table, then the write cost of the index V16 adds (pgbench, interleaved
rounds with and without it) unless --write-rounds 0.

Needs only psql and pgbench (PGPASSWORD for the password). Nothing but the given database is
touched; a history already stored with as many executions is reused, the migrations it lacks applied.
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
WRITES = "lw_"
JOBS = ["bench-list-a", "bench-list-b", "bench-list-c", "bench-list-d"]
STATUSES = ["STARTING", "STARTED", "STOPPING", "STOPPED", "FAILED", "COMPLETED", "ABANDONED", "UNKNOWN"]

# Listings the REST API or the Dev UI serve, by catalogue name; a listing statement ("page...") missing
# here fails the run, so a new one cannot escape the benchmark.
LISTINGS = ["AuditTrail.page[operator_request]", "AuditTrail.page[retention_action]",
            "AuditTrail.pageByInstance[operator_request]", "AuditTrail.pageByInstance[retention_action]",
            "JobExecutionListing.pageByOwner", "JobExecutionListing.pageByOwnerAndJob", "JobExecutionListing.pageByJob",
            "JobExecutionListing.pageByStatus",
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
    # one step a execution, for the detail reads of an execution and the Dev UI's page
    """INSERT INTO {p}step_execution (job_execution_id, job_instance_id, step_name, status, exit_code, created_at,
           started_at, ended_at, last_updated, version, node_id)
       SELECT e.id, e.job_instance_id, 'step-1', e.status, e.status, e.created_at, e.created_at, e.ended_at,
              e.ended_at, 2, 'step-1'
       FROM {p}job_execution e ORDER BY e.id""",
    # each job's schedule, and its events: a fire decision a minute for the first job
    """INSERT INTO {p}schedule (job_name, last_fire_time, updated_at)
       SELECT j, now(), now() FROM unnest(ARRAY['bench-list-a', 'bench-list-b', 'bench-list-c', 'bench-list-d']) AS j""",
    """INSERT INTO {p}schedule_event (job_name, action, operation_id, actor, fire_time, detail, recorded_at)
       SELECT 'bench-list-a', 'SKIP', 'fire-' || g, 'bench', now() - g * interval '1 minute', 'overlap',
              now() - g * interval '1 minute'
       FROM generate_series(1, {n} / 10) AS g ORDER BY g DESC""",
    "VACUUM ANALYZE {p}job_instance, {p}job_execution, {p}operator_request, {p}retention_action, "
    "{p}recovery_decision, {p}retention_hold, {p}step_execution, {p}schedule, {p}schedule_event",
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
    """Stores the history unless as many executions are stored; applies the migrations it lacks either way."""
    exists = psql(args, f"SELECT to_regclass('{PREFIX}job_execution') IS NOT NULL").strip() == "t"
    if exists and int(psql(args, f"SELECT count(*) FROM {PREFIX}job_execution").strip()) == args.executions \
            and psql(args, f"SELECT to_regclass('{PREFIX}migration') IS NOT NULL").strip() == "t":
        started = time.monotonic()
        applied = set(psql(args, f"SELECT name FROM {PREFIX}migration").split())
        for script in scripts():
            if script.name not in applied:
                migrate(args, script)
                psql(args, f"VACUUM ANALYZE {PREFIX}job_execution")
        return time.monotonic() - started
    started = time.monotonic()
    tables = psql(args, f"SELECT string_agg(tablename, ', ') FROM pg_tables WHERE tablename LIKE '{PREFIX}%'").strip()
    if tables:
        psql(args, f"DROP TABLE {tables} CASCADE")
    psql(args, f"CREATE TABLE {PREFIX}migration (name text PRIMARY KEY)")
    for script in scripts():
        migrate(args, script)
    for sql in SEED:
        psql(args, sql.format(p=PREFIX, n=args.executions))
    return time.monotonic() - started


def migrate(args, script):
    psql(args, script.read_text().replace("${prefix}", PREFIX)
         + f";\nINSERT INTO {PREFIX}migration VALUES ('{script.name}');")


def catalogue():
    """The SQL statements of the catalogue, by store.name, with PostgreSQL's numbered parameters."""
    statements = {}
    store = None
    lines = CATALOGUE.read_text().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("== "):
            store = line[3:].strip()
        elif line.startswith("=== ") and i + 2 < len(lines) and lines[i + 2] == "[source,sql]":
            source = i + 2
            end = lines.index("----", source + 2)
            statements[store + "." + line[4:].strip()] = numbered("\n".join(lines[source + 2:end]))
            i = end
        i += 1
    return statements


def numbered(text):
    """The statement with PostgreSQL's numbered parameters, and the names in their order."""
    names = []

    def number(match):
        if match.group(1) not in names:
            names.append(match.group(1))
        return "$" + str(names.index(match.group(1)) + 1)
    return re.sub(r"(?<![:\w]):(\w+)", number, text.replace("dbatch_", PREFIX)), names


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def time_requests(args, statements, requests):
    """Times requests, each a list of (statement name, dict of SQL literals by parameter) run one after
    the other, as a request of the REST API or the Dev UI runs them: each statement prepared once in
    one session under the generic plan, a warm-up, then every request; a request's time is the sum of
    its statements' (psql's \timing, loopback round trips included)."""
    prepared = {name: f"s{i}" for i, name in enumerate(sorted({name for request in requests for name, _ in request}))}

    def execute(name, values):
        text, names = statements[name]
        return f"EXECUTE {prepared[name]}(" + ", ".join(values.get(n, "NULL") for n in names) + ");\n"
    prepare = ["SET plan_cache_mode = force_generic_plan;\n"] + [
        f"PREPARE {handle} AS {statements[name][0]};\n" for name, handle in prepared.items()]
    script = list(prepare)
    script += [execute(*call) for request in requests[:50] for call in request]
    script.append("\\o /dev/null\n\\timing on\n")
    script += [execute(*call) for request in requests for call in request]
    # the plans, and the buffers a request touches (independent of the load): the most of its first 20
    explained = psql(args, "".join(prepare) + "".join(
        "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) " + execute(*call)
        for request in requests[:20] for call in request))
    per_statement = []
    for line in explained.splitlines():
        if "(actual rows" in line and not line.startswith(" "):
            per_statement.append(0)
        elif per_statement and per_statement[-1] == 0 and "Buffers:" in line:
            per_statement[-1] = sum(int(n) for n in re.findall(r"(?:hit|read)=(\d+)", line))
    buffers, at = [], 0
    for request in requests[:20]:
        buffers.append(sum(per_statement[at:at + len(request)]))
        at += len(request)
    output = psql(args, "".join(script))
    millis = [float(m) for m in re.findall(r"^Time: ([\d.]+) ms", output, re.M)]
    if len(millis) != sum(len(request) for request in requests):
        sys.exit(f"{len(millis)} timings for {sum(len(request) for request in requests)} statements")
    totals, at = [], 0
    for request in requests:
        totals.append(sum(millis[at:at + len(request)]))
        at += len(request)
    walks = sorted(set(re.findall(r"Scan(?: Backward)? using (\w+)", explained)))
    return {"p50Millis": round(quantile(totals, 50), 3), "p99Millis": round(quantile(totals, 99), 3),
            "maxMillis": round(max(totals), 3), "maxBuffers": max(buffers), "statements": len(requests[0]),
            "walks": walks, "seqScan": "Seq Scan" in explained}


# The reads of the detail views (REST and Dev UI) that Hibernate runs from the HQL the catalogue
# lists under "Entity queries", written as SQL: each a lookup of a key, here to show none walks more.
ENTITY_READS = {
    "JobInstanceStore.selectById": ("SELECT * FROM lb_job_instance WHERE id = $1", ["id"]),
    "JobExecutionStore.selectByInstance": (
        "SELECT * FROM lb_job_execution WHERE job_instance_id = $1 ORDER BY attempt", ["instanceId"]),
    "FlowDecisionStore.selectByExecution": (
        "SELECT * FROM lb_flow_decision WHERE job_execution_id = $1 ORDER BY sequence", ["jobExecutionId"]),
    "RetentionHoldStore.select": ("SELECT * FROM lb_retention_hold WHERE job_instance_id = $1", ["jobInstanceId"]),
    "RecoveryStore.selectDecision": (
        "SELECT * FROM lb_recovery_decision WHERE job_execution_id = $1", ["jobExecutionId"]),
}


def write_cost(args, rounds, launches):
    """The job_execution writes of a launch (create, claim, start, end) with and without the index V16
    adds, in interleaved rounds of pgbench: launches per second each, and their ratio. Commits do not
    wait for the disk (synchronous_commit off), so that the figure is the statements' work, which an
    index adds to, not the WAL flush, which it does not; the WAL bytes a launch writes count the index
    entries whatever the load. Runs on tables of its own (prefix lw_, dropped after), so that the
    listings' history keeps no trace of it (deleted entries a backward walk would step over)."""
    index = f"{WRITES}job_execution_owner_job_ix"
    drop_writes(args)
    for script in scripts():
        psql(args, script.read_text().replace("${prefix}", WRITES))
    create = psql(args, f"SELECT pg_get_indexdef('{index}'::regclass)").strip()
    script = Path(os.environ.get("TMPDIR", "/tmp")) / "durable-batch-launch-writes.sql"
    script.write_text(f"""BEGIN;
INSERT INTO {WRITES}job_instance (job_name, key_bytes, key_digest, created_at)
    VALUES ('bench-write', '\\x00', sha256(uuid_send(gen_random_uuid())), now()) RETURNING id AS instance \\gset
INSERT INTO {WRITES}job_execution (job_instance_id, job_name, attempt, status, exit_code, created_at, last_updated)
    VALUES (:instance, 'bench-write', 1, 'STARTING', 'EXECUTING', now(), now()) RETURNING id AS execution \\gset
COMMIT;
BEGIN;
UPDATE {WRITES}job_execution SET owner_token = 'bench-node-1', owner_claimed_at = now(), last_updated = now(),
    lease_expires_at = now() + interval '30 seconds', version = version + 1
    WHERE id = :execution AND status = 'STARTING' AND owner_token IS NULL;
UPDATE {WRITES}job_execution SET status = 'STARTED', started_at = now(), last_updated = now(), version = version + 1
    WHERE id = :execution;
COMMIT;
UPDATE {WRITES}job_execution SET status = 'COMPLETED', exit_code = 'COMPLETED', ended_at = now(), last_updated = now(),
    lease_expires_at = NULL, version = version + 1 WHERE id = :execution;
""")
    rates, wal = {"with": [], "without": []}, {"with": [], "without": []}
    try:
        for round in range(rounds):
            # the order alternates, so that a load drifting within a round favours neither
            for variant in ("without", "with") if round % 2 == 0 else ("with", "without"):
                psql(args, f"DROP INDEX IF EXISTS {index}" if variant == "without" else create)
                before = psql(args, "SELECT pg_current_wal_lsn()").strip()
                result = subprocess.run(["pgbench", "-n", "-M", "prepared", "-h", args.host, "-p", str(args.port), "-U", args.user,
                                         "-t", str(launches), "-f", str(script), args.db],
                                        capture_output=True, text=True, env=dict(os.environ, PGOPTIONS=
                                        "-c synchronous_commit=off"))
                tps = re.search(r"tps = ([\d.]+)", result.stdout)
                if result.returncode != 0 or not tps:
                    sys.exit("pgbench failed: " + result.stderr[-2000:])
                rates[variant].append(float(tps.group(1)))
                wal[variant].append(int(float(psql(args, f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{before}')")
                                              .strip())) // launches)
        indexes = int(psql(args, f"SELECT count(*) FROM pg_indexes WHERE tablename = '{WRITES}job_execution'"))
    finally:
        drop_writes(args)
    return {"launchesPerSecondWithout": rates["without"], "launchesPerSecondWith": rates["with"],
            "ratioWithToWithout": round(sum(rates["with"]) / sum(rates["without"]), 3),
            "walBytesPerLaunchWithout": wal["without"], "walBytesPerLaunchWith": wal["with"],
            "indexesOnJobExecution": indexes}


def drop_writes(args):
    tables = psql(args, f"SELECT string_agg(tablename, ', ') FROM pg_tables WHERE tablename LIKE '{WRITES}%'").strip()
    if tables:
        psql(args, f"DROP TABLE {tables} CASCADE")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5432)
    parser.add_argument("--user", default="postgres")
    parser.add_argument("--db", default="bench_listing")
    parser.add_argument("--executions", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--only", default="", help="run only the listings whose name contains this")
    parser.add_argument("--write-rounds", type=int, default=3, help="rounds of the write cost (0: none)")
    parser.add_argument("--write-launches", type=int, default=2000)
    args = parser.parse_args()

    load_seconds = store_history(args)
    statements = catalogue()
    listed = sorted(name for name in statements if name.split(".", 1)[1].startswith("page"))
    if listed != sorted(LISTINGS):
        sys.exit(f"the catalogue's listings {listed} differ from those benchmarked {sorted(LISTINGS)}")
    statements.update(ENTITY_READS)
    rnd = random.Random(20261205)
    low, high, oldest, newest = map(int, psql(args, f"""SELECT min(id), max(id),
        (extract(epoch FROM min(created_at)) * 1000000)::bigint, (extract(epoch FROM max(created_at)) * 1000000)::bigint
        FROM {PREFIX}job_execution""").split("|"))
    depth_ids = [low + (high - low) // 4 + rnd.randrange((high - low) // 2) for _ in range(args.samples)]
    rows = dict((int(i), (int(m), int(j))) for i, m, j in (row.split("|") for row in psql(args, f"""SELECT id,
        (extract(epoch FROM created_at) * 1000000)::bigint, job_instance_id FROM {PREFIX}job_execution
        WHERE id = ANY (ARRAY[{','.join(map(str, depth_ids))}])""").split()))
    created = {i: m for i, (m, _) in rows.items()}
    some_instance = int(psql(args, f"SELECT min(id) FROM {PREFIX}job_instance").strip())
    header = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "host": args.host, "port": args.port,
              "executions": args.executions, "loadSeconds": round(load_seconds, 1), "samples": args.samples,
              "server": psql(args, "SHOW server_version").strip(), "loadAverage": os.getloadavg()}
    print(json.dumps({"listings": header}), flush=True)

    def ts(micros):
        return f"(timestamptz 'epoch' + {micros} * interval '1 microsecond')"

    def ids_of(ids):
        return f"CAST(ARRAY[{', '.join(map(str, ids))}] AS bigint[])"

    span = newest - oldest
    every_status = "ARRAY[" + ", ".join(f"'{s}'" for s in STATUSES) + "]"

    def walk_of(given):
        if "Owner" in given:
            return "pageByOwnerAndJob" if "Job" in given else "pageByOwner"
        return "pageByJob" if "Job" in given else "pageByStatus"

    def execution_pages(given, deep, filters):
        calls = []
        for sample in range(args.samples):
            values = {"statuses": every_status, "limit": "51", "untilCreated": "NULL", "untilId": str(2 ** 63 - 1)}
            until = (created[depth_ids[sample]], depth_ids[sample]) if deep else None
            for f in given:
                name, value = filters[f]
                if name == "createdBefore":
                    if until is None or (value, -2 ** 63) < until:
                        until = (value, -2 ** 63)
                else:
                    values[name] = value
            if until is not None:
                values["untilCreated"], values["untilId"] = ts(until[0]), str(until[1])
            calls.append([("JobExecutionListing." + walk_of(given), values)])
        return calls

    kinds = []
    filters = {"Job": ("job", f"'{JOBS[1]}'"), "Failed": ("statuses", "ARRAY['FAILED']"),
               "From": ("createdFrom", ts(oldest + span // 10)), "Before": ("createdBefore", oldest + span * 9 // 10),
               "Owner": ("owner", "'bench-node-1'")}
    for combination in range(1 << len(filters)):
        given = [f for i, f in enumerate(filters) if combination & 1 << i]
        for deep in (False, True):
            kinds.append(("all" + "".join(given) + ("Deep" if deep else ""), execution_pages(given, deep, filters)))
    # a time range of a minute far back (60 executions of the million), and a job the owner never ran (on
    # V13's owner index such a page read every entry of the owner's)
    narrow = dict(filters, From=("createdFrom", ts(oldest + span // 20)),
                  Before=("createdBefore", oldest + span // 20 + 60_000_000), Job=("job", "'bench-list-none'"))
    for given in (["From", "Before"], ["Job", "From", "Before"], ["Failed", "From", "Before"],
                  ["From", "Before", "Owner"], ["Job", "Owner"], ["Job", "Failed", "Owner"]):
        for deep in (False, True):
            kinds.append(("narrow" + "".join(given) + ("Deep" if deep else ""), execution_pages(given, deep, narrow)))

    def simple(listing, label, values_of):
        for deep in (False, True):
            calls = [[(listing, dict(values_of(sample, deep), limit="51"))] for sample in range(args.samples)]
            kinds.append((label + ("Deep" if deep else ""), calls))

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

    # the detail views, each request as the statements it runs
    kinds.append(("executionDetail", [[
        ("JobExecutionStore.selectById", {"id": str(i)}),
        ("StepExecutionStore.selectByJobExecutions", {"jobExecutionIds": ids_of([i])}),
        ("FlowDecisionStore.selectByExecution", {"jobExecutionId": str(i)}),
        ("ExecutionControlStore.readOwnership", {"id": str(i)})] for i in depth_ids]))
    kinds.append(("instanceDetail", [[
        ("JobInstanceStore.selectById", {"id": str(rows[i][1])}),
        ("JobExecutionStore.selectByInstance", {"instanceId": str(rows[i][1])}),
        ("RetentionHoldStore.select", {"jobInstanceId": str(rows[i][1])})] for i in depth_ids]))
    kinds.append(("schedules", [[("ScheduleStore.select", {"job": f"'{job}'"}) for job in JOBS]] * args.samples))
    # a schedule's latest events: of the job that has them all, and of one that has none
    for label, job in (("scheduleEvents", JOBS[0]), ("scheduleEventsOfAnother", JOBS[1])):
        kinds.append((label, [[("ScheduleStore.events", {"job": f"'{job}'", "limit": "20"})]] * args.samples))
    # the Dev UI's executions page: a page of 50, then the steps of its executions (their counters and
    # progress), one statement for all of them
    page_ids = [int(n) for n in psql(args, f"SELECT id FROM {PREFIX}job_execution ORDER BY id DESC LIMIT 50").split()]
    for deep in (False, True):
        pages = []
        for sample in range(args.samples):
            values = {"statuses": every_status, "limit": "51", "untilCreated": "NULL", "untilId": str(2 ** 63 - 1)}
            ids = page_ids
            if deep:
                values["untilCreated"], values["untilId"] = ts(created[depth_ids[sample]]), str(depth_ids[sample])
                ids = range(depth_ids[sample] - 50, depth_ids[sample])
            pages.append([("JobExecutionListing.pageByStatus", values),
                          ("StepExecutionStore.selectByJobExecutions", {"jobExecutionIds": ids_of(ids)})])
        kinds.append(("devUiExecutions" + ("Deep" if deep else ""), pages))

    table = []
    for label, requests in kinds:
        if args.only and args.only not in label + requests[0][0][0]:
            continue
        figures = time_requests(args, statements, requests)
        table.append((requests[0][0][0], label, figures))
        print(json.dumps({"listing": requests[0][0][0], "kind": label, **figures}), flush=True)

    print(f"\n{'statement (first of the request)':44} {'kind':42} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'buffers':>7}  walks")
    for listing, label, f in table:
        walks = ", ".join(w[len(PREFIX):] for w in f["walks"]) + (" SEQ SCAN" if f["seqScan"] else "")
        print(f"{listing:44} {label:42} {f['p50Millis']:8.2f} {f['p99Millis']:8.2f} {f['maxMillis']:8.2f} "
              f"{f['maxBuffers']:7d}  {walks}")
    over = [label for _, label, f in table if f["p99Millis"] >= 20]
    print(f"{len(table)} kinds, {len(over)} with a p99 of 20 ms or more{': ' + ', '.join(over) if over else ''}; "
          f"load average now {os.getloadavg()}", flush=True)

    if args.write_rounds > 0 and not args.only:
        print(json.dumps({"writeCost": write_cost(args, args.write_rounds, args.write_launches)}), flush=True)


if __name__ == "__main__":
    main()
