#!/usr/bin/env python3
"""What the repository's interception and the callers' polls cost in a JFR recording's CPU samples
(jdk.ExecutionSample, every thread). For each recording given: the samples in a call to the
repository bean (its ArC subclass on the stack), and of them those outside the repository method's
own body (the interceptor chain: the argument checks, requireActive, ArC's invocation context); the
samples in the Jakarta operator's getJobExecution, and of them those outside the statement (no
pgjdbc frame and no row mapping on the stack: the JTA transaction, the enlistment, the proxies).
Usage: python3 benchmarks/profiles/interception_share.py RECORDING.jfr..."""
import sys, subprocess, json

REPOSITORY = 'io.durablebatch.runtime.repository.PostgresJobRepository'
SUBCLASS = REPOSITORY + '_Subclass'
STATEMENT = ('org.postgresql.', 'io.durablebatch.runtime.repository.ExecutionRows')


def frames(event):
    trace = event['values'].get('stackTrace')
    if not trace:
        return []
    return [(f['method']['type']['name'].replace('/', '.'), f['method']['name']) for f in trace['frames']]


def summary(recording):
    out = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ExecutionSample', '--stack-depth', '128',
                          recording], capture_output=True, text=True, check=True).stdout
    events = json.loads(out)['recording']['events']
    total = len(events)
    in_repository = outside_body = polls = poll_transaction = interceptor_self = 0
    for event in events:
        stack = frames(event)
        types = [t for t, _ in stack]
        if SUBCLASS in types:
            in_repository += 1
            if REPOSITORY not in types:
                outside_body += 1
            if any(t.endswith('RepositoryCallInterceptor') for t in types) and REPOSITORY not in types:
                interceptor_self += 1
        if any(t.endswith('JakartaJobOperator') and m == 'getJobExecution' for t, m in stack):
            polls += 1
            if not any(t.startswith(STATEMENT) for t in types):
                poll_transaction += 1

    def share(n):
        return '%5d %5.1f%%' % (n, 100 * n / total if total else 0)
    print('== ' + recording)
    print('%s  CPU samples, every thread' % share(total))
    print('%s  in a repository call (PostgresJobRepository_Subclass on the stack)' % share(in_repository))
    print('%s    of it outside the repository method (interceptor chain, checks, requireActive)' % share(outside_body))
    print('%s    of it under RepositoryCallInterceptor, outside the method' % share(interceptor_self))
    print('%s  in JakartaJobOperator.getJobExecution (the polls)' % share(polls))
    print('%s    of it outside the statement (no pgjdbc frame, no row mapping)' % share(poll_transaction))


for path in sys.argv[1:]:
    summary(path)
