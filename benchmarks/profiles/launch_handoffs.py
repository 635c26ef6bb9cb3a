#!/usr/bin/env python3
"""The hand-offs of sequential launch + await, from a JFR recording made with launch-handoffs.jfc.

    python3 benchmarks/profiles/launch_handoffs.py RECORDING.jfr

For each await of the caller (a park of the thread named "main" in ExecutionHandle.await, or in
Thread.sleep's park-less wait for a Jakarta poll, which has no park and is not counted), the kernel
execution thread's busy interval inside it (between its parks in ThreadPoolExecutor.getTask): how
long the caller waited, how long the execution thread worked, and the two hand-offs: from the
caller beginning to wait to the execution thread running (negative: it ran before the caller
parked), and from the execution thread's last work to the caller running again. Prints
percentiles in microseconds.
"""
import json
import subprocess
import sys


def parks(recording):
    out = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ThreadPark', '--stack-depth', '24', recording],
                         capture_output=True, text=True, check=True).stdout
    for event in json.loads(out)['recording']['events']:
        values = event['values']
        thread = (values.get('eventThread') or {}).get('javaName') or ''
        frames = [f['method']['type']['name'].replace('/', '.') + '.' + f['method']['name']
                  for f in (values.get('stackTrace') or {}).get('frames', [])]
        yield thread, frames, values['startTime'], values['duration']


def nanos(timestamp):
    # JFR's JSON: ISO times with nanoseconds, durations as ISO-8601 "PT0.000123S"
    from datetime import datetime
    date, fraction = timestamp.rstrip('Z').split('.') if '.' in timestamp else (timestamp.rstrip('Z'), '0')
    base = datetime.fromisoformat(date.split('+')[0]).timestamp()
    return int(base) * 1_000_000_000 + int((fraction.split('+')[0] + '000000000')[:9])


def duration(text):
    return int(round(float(text[2:-1]) * 1e9)) if text.startswith('PT') and text.endswith('S') else 0


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else None


def main(recording):
    awaits, idle = [], []
    for thread, frames, start, length in parks(recording):
        began = nanos(start)
        ended = began + duration(length)
        if thread == 'main' and any('ExecutionHandle.await' in f for f in frames):
            awaits.append((began, ended))
        elif thread.startswith('durable-batch-execution') and any('ThreadPoolExecutor.getTask' in f for f in frames):
            idle.append((began, ended))
    idle.sort()
    rows = []
    j = 0
    for a_start, a_end in sorted(awaits):
        # the execution thread's last idle park ending before the caller woke, and the next one it began
        while j + 1 < len(idle) and idle[j + 1][1] <= a_end:
            j += 1
        if j + 1 >= len(idle) or idle[j][1] > a_end:
            continue
        busy_start, busy_end = idle[j][1], idle[j + 1][0]
        if busy_start < a_start - 50_000_000:
            continue  # no execution of this await's launch found
        rows.append((a_end - a_start, busy_end - busy_start, busy_start - a_start, a_end - busy_end))
    print(f'{recording}: {len(rows)} awaits matched of {len(awaits)}')
    names = ['caller waited', 'execution thread busy (to its next idle park)', 'caller waiting -> execution thread running',
             'execution thread idle again -> caller running']
    for i, name in enumerate(names):
        column = [row[i] / 1000 for row in rows]
        print(f'  {name:48s} p50 {percentile(column, 0.5):9.1f} µs  p95 {percentile(column, 0.95):9.1f} µs')


if __name__ == '__main__':
    main(sys.argv[1])
