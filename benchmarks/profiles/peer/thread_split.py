#!/usr/bin/env python3
"""Per JVM of a peer run, the CPU per unit split into the JIT compiler's threads and the threads that do the
work (benchmarks.adoc, "the measure, decided"): the runtime's execution threads (Durable Batch's
durable-batch-executor, JBeret's executor-thread), the caller (the main thread, "java" in /proc) and pgjdbc's
timer thread (woken by every statement that has a timeout, as the repository's have), from the
JSON lines `benchmarks/peer/run.sh` prints on stderr with -Dpeer.thread-cpu=true.

    python3 benchmarks/profiles/peer/thread_split.py <stderr of run.sh>...
"""
import json
import re
import sys

LINE = re.compile(r'peer: round (\d+) (\S+) (\S+): (\{.*\})')
# /proc names a thread by its first 15 characters, digits as N
EXECUTION = ('durable-batch-e', 'durable-batch-l', 'executor-thread')


def split(line):
    unit = 'Chunk' if line['workload'] == 'chunk' else 'Launch'
    threads = line.get(f'cpuMillisPer{unit}ByThread', {})
    execution = sum(v for k, v in threads.items() if k.startswith(EXECUTION))
    caller = threads.get('java', 0)
    timer = threads.get('PostgreSQL-JDBC', 0)
    return {'total': line[f'cpuMillisPer{unit}'],
            'compiler': sum(v for k, v in threads.items() if 'Compiler' in k),
            'execution': execution, 'caller': caller, 'driverTimer': timer, 'work': execution + caller + timer,
            'gc': sum(v for k, v in threads.items() if 'GC' in k)}


for path in sys.argv[1:]:
    print('==', path)
    for text in open(path):
        match = LINE.match(text)
        if not match:
            continue
        run, variant, workload, line = match.group(1), match.group(2), match.group(3), json.loads(match.group(4))
        cpu = split(line)
        rate = line.get('itemsPerSecond') or line.get('jobsPerSecond')
        window = (line['windowEpochMillis'][1] - line['windowEpochMillis'][0]) / 1000
        print(f"round {run} {workload:9} {variant:15} rate {rate:>9} p95 {line.get('p95Millis', '-')!s:6} "
              f"ms/unit: JVM {cpu['total']:5.2f} compiler {cpu['compiler']:5.2f} execution {cpu['execution']:5.2f} "
              f"caller {cpu['caller']:5.2f} work {cpu['work']:5.2f} driver timer {cpu['driverTimer']:4.2f} "
              f"GC {cpu['gc']:4.2f} window {window:.1f} s")
