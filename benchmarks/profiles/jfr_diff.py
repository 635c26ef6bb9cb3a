#!/usr/bin/env python3
"""A differential profile of two runs of the same workload (benchmarks.adoc, "Issue 29, the Jakarta
chunk's extra CPU, explained"): each run is a JFR recording (benchmarks/profiles/chunk-threads.jfc) and
the JSON line PeerWorkloads printed with -Dpeer.thread-cpu=true, whose timed window cuts the recording
and whose CPU by thread turns sample shares into milliseconds of CPU per unit.

    python3 benchmarks/profiles/jfr_diff.py LABEL_A A.jfr A.json LABEL_B B.jfr B.json [UNITS_KEY]

Prints, per run and as A - B in ms per unit: CPU by thread group; each sampled Java thread's inclusive and self frames
(sample share x that thread's CPU); JIT compilations (count, time) by the compiled method's library;
collections; allocation samples by allocating frame (KB per unit, JFR's weights)."""
import sys, re, json, collections, subprocess, datetime

def events(jfr, kinds, depth=64):
    out = subprocess.run(['jfr', 'print', '--json', '--stack-depth', str(depth), '--events', ','.join(kinds), jfr],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)['recording']['events']

def epoch_ms(ts):
    # "2026-12-06T05:40:01.123456789Z" (or an offset): to epoch milliseconds
    m = re.match(r'(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)', ts)
    base = datetime.datetime.fromisoformat(m.group(1) + (m.group(3).replace('Z', '+00:00')))
    return base.timestamp() * 1000 + (float(m.group(2)) * 1000 if m.group(2) else 0)

def group(thread):
    t = re.sub(r'\d+', 'N', thread)
    # /proc's names come with their digits as N already (G1 as GN, C2 as CN)
    for key, pattern in [('GC', r'^(GC Thread|G[1N] |VM Periodic)'), ('JIT compiler', r'^C[12N] Compi'),
                         ('VM thread', r'^VM Thread'), ('JFR', r'^JFR')]:
        if re.search(pattern, t):
            return key
    return t

def frame(f):
    # a lambda's or method handle's hidden class is named differently in each JVM: compared by its host
    name = re.sub(r'\$\$Lambda\$\d+\+0x[0-9a-f]+[./]\d+|\+0x[0-9a-f]+[./]\d+', '$$Lambda',
                  f['method']['type']['name'].replace('/', '.'))
    return name + '.' + f['method']['name']

def library(name):
    for key, prefix in [('Durable Batch Jakarta layer', 'io.durablebatch.jakarta'), ('Durable Batch kernel', 'io.durablebatch.runtime'),
                        ('Durable Batch API', 'io.durablebatch.'), ('benchmark', 'io.durablebatch.benchmarks'),
                        ('pgjdbc', 'org.postgresql'), ('Narayana', 'com.arjuna'), ('Agroal', 'io.agroal'),
                        ('Quarkus', 'io.quarkus'), ('JDK', 'java.'), ('JDK', 'jdk.'), ('JDK', 'sun.')]:
        if name.startswith(prefix):
            return key
    return 'other: ' + '.'.join(name.split('.')[:2])

# A sample's CPU belongs to the leaf-most frame of a library other than the JDK's (a HashMap.get inside
# pgjdbc is pgjdbc's); ArC's generated subclasses and proxies sit in the bean's package but are ArC's.
LIBRARIES = [(r'_(Subclass|ClientProxy|Bean|InterceptorInvoker)\b|^io\.quarkus\.arc\.', 'ArC'),
             (r'^io\.durablebatch\.benchmarks\.', 'benchmark artifacts'),
             (r'^io\.durablebatch\.jakarta\.', 'Durable Batch Jakarta layer'),
             (r'^io\.durablebatch\.item\.', 'Durable Batch item writers'),
             (r'^io\.durablebatch\.', 'Durable Batch kernel'),
             (r'^(com\.arjuna|io\.narayana|io\.quarkus\.narayana|org\.jboss\.tm|jakarta\.transaction)\.', 'Narayana/JTA'),
             (r'^org\.hibernate\.|^io\.quarkus\.hibernate', 'Hibernate'), (r'^org\.postgresql\.', 'pgjdbc'),
             (r'^io\.agroal\.', 'Agroal'), (r'^(org\.jberet|io\.quarkiverse\.jberet)\.', 'JBeret'),
             (r'^io\.smallrye\.faulttolerance', 'SmallRye FT'), (r'^org\.jboss\.(logging|logmanager)', 'logging'),
             (r'^(io\.quarkus|io\.smallrye)\.', 'Quarkus other')]

def leaf_most(frames, table, default):
    """The name of the pattern that matches the leaf-most frame any pattern of table matches (the first such)."""
    for f in frames:
        for pattern, name in table:
            if re.search(pattern, f):
                return name
    return default

def sample_library(frames):
    return leaf_most(frames, LIBRARIES, 'JDK only')

def analyse(jfr, line_file, units_key):
    line = json.loads(open(line_file).read().strip().splitlines()[-1])
    lo, hi = line['windowEpochMillis']
    unit = [k for k in line if k.startswith('cpuMillisPer') and k.endswith('ByThread')][0]
    by_thread = line[unit]
    units = line.get(units_key) or line['items'] / 1000
    r = {'line': line, 'units': units, 'cpu': line[unit.replace('ByThread', '')]}
    groups = collections.Counter()
    for t, ms in by_thread.items():
        groups[group(t)] += ms
    r['groups'] = groups
    evs = events(jfr, ['jdk.ExecutionSample', 'jdk.ObjectAllocationSample', 'jdk.GarbageCollection', 'jdk.Compilation',
                       'jdk.Deoptimization'])
    inside = [e for e in evs if lo <= epoch_ms(e['values']['startTime']) <= hi]
    # each sampled Java thread's frames, weighted by its CPU: sample share x the thread's ms per unit
    # (/proc names a thread by its first 15 characters; the main thread by the process's name)
    stacks = collections.defaultdict(list)
    for e in inside:
        if e['type'] == 'jdk.ExecutionSample':
            t = e['values'].get('sampledThread') or {}
            stacks[re.sub(r'\d+', 'N', t.get('javaName') or t.get('osName') or '?')].append(
                [frame(f) for f in (e['values'].get('stackTrace') or {}).get('frames', [])])
    r['samples'] = {t: len(s) for t, s in stacks.items()}
    r['stacks'] = stacks
    r['frames'] = {}
    for t, sampled in stacks.items():
        cpu = by_thread.get('java' if t == 'main' else t[:15], 0.0)
        incl, own, libs = collections.Counter(), collections.Counter(), collections.Counter()
        for frames in sampled:
            libs[sample_library(frames)] += cpu / len(sampled)
            for f in set(frames):
                incl[f] += cpu / len(sampled)
            if frames:
                own[frames[0]] += cpu / len(sampled)
        r['frames'][t] = (cpu, incl, own, libs)
    comps = [e for e in inside if e['type'] == 'jdk.Compilation']
    jit = collections.defaultdict(lambda: [0, 0.0])
    methods = collections.defaultdict(lambda: [0, 0.0])
    for e in comps:
        v = e['values']
        name = v['method']['type']['name'].replace('/', '.')
        key = ('C%d ' % (2 if v.get('compileLevel', 0) == 4 else 1)) + library(name)
        jit[key][0] += 1
        jit[key][1] += duration_ms(v['duration'])
        method = key[:3] + frame(v)
        methods[method][0] += 1
        methods[method][1] += duration_ms(v['duration'])
    r['jit'] = jit
    r['methods'] = methods
    r['deopts'] = sum(1 for e in inside if e['type'] == 'jdk.Deoptimization')
    gcs = [e for e in inside if e['type'] == 'jdk.GarbageCollection']
    r['gc'] = (len(gcs), sum(duration_ms(e['values']['sumOfPauses']) for e in gcs))
    alloc = collections.Counter()
    for e in inside:
        if e['type'] != 'jdk.ObjectAllocationSample':
            continue
        v = e['values']
        frames = [frame(f) for f in (v.get('stackTrace') or {}).get('frames', [])]
        site = next((f for f in frames if not f.startswith(('java.', 'jdk.', 'sun.'))), frames[0] if frames else '?')
        alloc[v['objectClass']['name'] + ' @ ' + site] += v['weight'] / 1024
    r['alloc'] = alloc
    return r

def duration_ms(d):
    # JFR JSON durations: "PT0.001234S" or a number of nanoseconds
    if isinstance(d, (int, float)):
        return d / 1e6
    m = re.match(r'PT(?:(\d+)M)?([\d.]+)S', d)
    return (int(m.group(1) or 0) * 60 + float(m.group(2))) * 1000 if m else 0.0

def main():
    la, ja, lna, lb, jb, lnb = sys.argv[1:7]
    key = sys.argv[7] if len(sys.argv) > 7 else None
    a, b = analyse(ja, lna, key), analyse(jb, lnb, key)
    u = lambda r: r['units']
    print('units: %s %.0f, %s %.0f; JVM CPU ms/unit: %s %.3f, %s %.3f, difference %.3f' % (
        la, u(a), lb, u(b), la, a['cpu'], lb, b['cpu'], a['cpu'] - b['cpu']))
    print('\n== CPU by thread group, ms per unit (/proc/self/task over the timed window)')
    print('%-40s %9s %9s %9s' % ('', la, lb, 'diff'))
    for g in sorted(set(a['groups']) | set(b['groups']), key=lambda g: -abs(a['groups'][g] - b['groups'][g])):
        print('%-40s %9.3f %9.3f %+9.3f' % (g[:40], a['groups'][g], b['groups'][g], a['groups'][g] - b['groups'][g]))
    for t in sorted(set(a['frames']) | set(b['frames']), key=lambda t: -(a['frames'].get(t, (0,))[0] + b['frames'].get(t, (0,))[0])):
        fa, fb = a['frames'].get(t, (0, {}, {}, {})), b['frames'].get(t, (0, {}, {}, {}))
        if fa[0] + fb[0] < 0.05:
            continue
        print('\n== thread %s: %s %.3f ms/unit (%d samples), %s %.3f ms/unit (%d samples)' % (
            t, la, fa[0], a['samples'].get(t, 0), lb, fb[0], b['samples'].get(t, 0)))
        for title, k in [('by library (a sample to its leaf-most non-JDK frame)', 3), ('inclusive', 1), ('self', 2)]:
            print('-- %s frames, ms per unit (sample share x the thread\'s CPU), largest differences' % title)
            keys = set(fa[k]) | set(fb[k])
            for f in sorted(keys, key=lambda f: -abs(fa[k].get(f, 0) - fb[k].get(f, 0)))[:int(sys.argv[8]) if len(sys.argv) > 8 else 30]:
                print('%-100s %8.3f %8.3f %+8.3f' % (f[-100:], fa[k].get(f, 0), fb[k].get(f, 0), fa[k].get(f, 0) - fb[k].get(f, 0)))
    print('\n== JIT compilations in the window (count, compile ms per unit) by compiled method\'s library')
    for key in sorted(set(a['jit']) | set(b['jit'])):
        ca, cb = a['jit'].get(key, [0, 0]), b['jit'].get(key, [0, 0])
        print('%-40s %s %5d %8.3f   %s %5d %8.3f' % (key, la, ca[0], ca[1] / u(a), lb, cb[0], cb[1] / u(b)))
    print('-- compiled methods, largest differences in compile time (wall ms in the window; count)')
    for m in sorted(set(a['methods']) | set(b['methods']),
                    key=lambda m: -abs(a['methods'].get(m, [0, 0])[1] - b['methods'].get(m, [0, 0])[1]))[:25]:
        ma, mb = a['methods'].get(m, [0, 0]), b['methods'].get(m, [0, 0])
        print('%-100s %7.0f (%d) %7.0f (%d)' % (m[-100:], ma[1], ma[0], mb[1], mb[0]))
    print('deoptimizations in the window: %s %d, %s %d' % (la, a['deopts'], lb, b['deopts']))
    print('\n== collections in the window: %s %d (%.3f per unit, pauses %.3f ms/unit); %s %d (%.3f per unit, pauses %.3f ms/unit)' % (
        la, a['gc'][0], a['gc'][0] / u(a), a['gc'][1] / u(a), lb, b['gc'][0], b['gc'][0] / u(b), b['gc'][1] / u(b)))
    ta, tb = sum(a['alloc'].values()) / u(a), sum(b['alloc'].values()) / u(b)
    print('\n== allocation samples, KB per unit (JFR weights): %s %.1f, %s %.1f; largest differences by class @ site' % (la, ta, lb, tb))
    keys = set(a['alloc']) | set(b['alloc'])
    for s in sorted(keys, key=lambda s: -abs(a['alloc'][s] / u(a) - b['alloc'][s] / u(b)))[:30]:
        print('%-110s %8.1f %8.1f %+8.1f' % (s[-110:], a['alloc'][s] / u(a), b['alloc'][s] / u(b), a['alloc'][s] / u(a) - b['alloc'][s] / u(b)))

if __name__ == '__main__':
    main()
