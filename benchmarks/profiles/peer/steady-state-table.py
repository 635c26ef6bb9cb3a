#!/usr/bin/env python3
"""Where each variant's CPU per unit goes past the JIT's warm-up (benchmarks.adoc, "Steady state: where the
execution thread's CPU goes"): the recordings chunk-threads.sh JFR=DIR left (DIR/<round>-<warm-up>-<runtime>-<api>.jfr
and .json), each cut to its timed window by jfr_diff.analyse, averaged over the rounds; per round in brackets.

    python3 benchmarks/profiles/peer/steady-state-table.py DIR chunk|launches [BASE [OTHER...]]

Prints, in µs per unit: the JVM, the JIT compiler threads (and their share), the execution thread(s) and the
caller; then the execution thread's and the caller's CPU by library (a sample to its leaf-most non-JDK frame,
its share of the thread's samples x the thread's /proc CPU), with BASE (default durable-native) minus each other."""
import sys, os, glob, re, collections
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from jfr_diff import analyse, leaf_most

directory, workload = sys.argv[1], sys.argv[2]
units_key = 'launches' if workload == 'launches' else None
runs = collections.defaultdict(list)
for json_file in sorted(glob.glob(os.path.join(directory, '*.json'))):
    name = os.path.basename(json_file)[:-5]
    line = open(json_file).read()
    if ('"workload":"%s"' % workload) not in line:
        continue
    variant = name.split('-', 2)[2]
    runs[variant].append(analyse(json_file[:-5] + '.jfr', json_file, units_key))
base = sys.argv[3] if len(sys.argv) > 3 else 'durable-native'
others = sys.argv[4:] or sorted(v for v in runs if v != base)
variants = [base] + others

def execution(thread):
    return bool(re.match(r'(durable-batch-execution|executor-thread)', thread))

def caller(variant):
    # the bare ceiling runs its chunks on the caller's thread: that is its execution thread
    return 'main' if not variant.endswith('bare') else None

def chosen(thread, which, variant):
    """Whether the thread is one of the variant's execution threads (which == 'execution') or its caller."""
    if which == 'execution':
        return execution(thread) or (thread == 'main' and variant.endswith('bare'))
    return thread == caller(variant)

def part(r, which, variant):
    """(ms per unit, library -> ms per unit) of the execution threads or the caller in one run."""
    cpu, libs = 0.0, collections.Counter()
    for t, (ms, _, _, by_library) in r['frames'].items():
        if chosen(t, which, variant):
            cpu += ms
            libs.update(by_library)
    if which == 'caller' and caller(variant) and cpu == 0.0:
        cpu = r['groups'].get('java', 0.0)  # no samples: the /proc figure alone
    return cpu, libs

# What a sample's CPU was for: the leaf-most frame that names a purpose (a pgjdbc frame under the item
# writer is the write's; Narayana's frames are the transaction's, wherever they are called from).
PURPOSES = {
    'chunk': [(r'^(com\.arjuna|io\.narayana|io\.agroal\.narayana)\.', 'Narayana (begin, enlist, commit)'),
              (r'StepAttempt\.record(Progress|Completion)|JdbcRepository\.updateStepExecution|savePersistentData', 'record progress (the repository UPDATE)'),
              (r'ItemWriter\.write|writeItems', 'item writer'),
              (r'readItem|processItem|ItemReader|ItemProcessor', 'reader + processor'),
              (r'\.(callRequireNew|callInOurTx)$', 'in the transaction, the rest (listeners, checkpoint)')],
    'launches': [(r'^(com\.arjuna|io\.narayana|io\.agroal\.narayana)\.', 'Narayana (begin, enlist, commit)'),
                 (r'^org\.jberet\.repository\.|^io\.durablebatch\.runtime\.(repository|sql)\.|^org\.hibernate', 'repository (statements, mapping)'),
                 (r'^io\.durablebatch\.benchmarks\.peer\.PeerBatchlet|\.process$', 'the batchlet'),
                 (r'\.(callRequireNew|callInOurTx|requiringNew|joiningExisting)', 'in a transaction, the rest')],
}

def purpose(frames):
    return leaf_most(frames, PURPOSES[workload], 'runtime (the rest)')

def purposes(r, which, variant):
    """The execution threads' or the caller's ms per unit by purpose in one run."""
    out = collections.Counter()
    for t, (ms, _, _, _) in r['frames'].items():
        if chosen(t, which, variant) and r['stacks'][t]:
            for frames in r['stacks'][t]:
                out[purpose(frames)] += ms / len(r['stacks'][t])
    return out

def mean(values):
    return sum(values) / len(values) if values else 0.0

def cell(values):
    return '%6.0f [%s]' % (mean(values) * 1000, ' '.join('%.0f' % (v * 1000) for v in values))

print('workload %s, rounds per variant: %s' % (workload, ', '.join('%s %d' % (v, len(runs[v])) for v in variants)))
print('\n== µs per unit (mean [per round])')
print('%-40s' % '' + ''.join('%-26s' % v for v in variants))
rows = [('JVM', lambda r, v: r['cpu']), ('JIT compiler threads', lambda r, v: r['groups'].get('JIT compiler', 0.0)),
        ('execution thread(s)', lambda r, v: part(r, 'execution', v)[0]), ('caller (main)', lambda r, v: part(r, 'caller', v)[0]),
        ('GC threads', lambda r, v: r['groups'].get('GC', 0.0))]
for title, f in rows:
    print('%-40s' % title + ''.join('%-26s' % cell([f(r, v) for r in runs[v]]) for v in variants))
print('%-40s' % 'JIT share of the JVM' + ''.join('%-26s' % ('%5.1f%%' % (100 * mean([r['groups'].get('JIT compiler', 0.0) / r['cpu'] for r in runs[v]]))) for v in variants))
print('%-40s' % 'execution samples' + ''.join('%-26s' % ' '.join(str(sum(n for t, n in r['samples'].items() if chosen(t, 'execution', v))) for r in runs[v]) for v in variants))
print('%-40s' % 'units per run' + ''.join('%-26s' % ' '.join('%.0f' % r['units'] for r in runs[v]) for v in variants))
for which, split in [('execution', 'library'), ('execution', 'purpose'), ('caller', 'library'), ('caller', 'purpose')]:
    print('\n== %s thread(s), µs per unit by %s (mean [per round]); %s minus each' % (which, split, base))
    table = {v: [part(r, which, v)[1] if split == 'library' else purposes(r, which, v) for r in runs[v]] for v in variants}
    libraries = sorted({lib for v in variants for libs in table[v] for lib in libs},
                       key=lambda lib: -max(mean([libs.get(lib, 0.0) for libs in table[v]]) for v in variants))
    print('%-40s' % split + ''.join('%-26s' % v for v in variants) + ''.join('%-14s' % ('- ' + v[:12]) for v in others))
    for lib in libraries + ['total']:
        values = {v: [sum(libs.values()) if lib == 'total' else libs.get(lib, 0.0) for libs in table[v]] for v in variants}
        print('%-40s' % lib[:40] + ''.join('%-26s' % cell(values[v]) for v in variants)
              + ''.join('%+-14.0f' % ((mean(values[base]) - mean(values[v])) * 1000) for v in others))
