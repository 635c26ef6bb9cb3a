#!/usr/bin/env python3
"""Summarises a JFR recording's CPU samples (jdk.ExecutionSample): by library (the innermost frame
that is not the JDK's), by thread, by the innermost Durable Batch frame above the SQL layer, and the
heaviest frames. Usage: python3 benchmarks/profiles/jfr_summary.py RECORDING.jfr"""
import sys, re, collections, subprocess, json

jfr=sys.argv[1]
out=subprocess.run(['jfr','print','--json','--events','jdk.ExecutionSample','--stack-depth','96',jfr],capture_output=True,text=True).stdout
data=json.loads(out)
evs=data['recording']['events']
def lib(frames):
    for f in frames:
        m=f['method']; t=m['type']['name'].replace('/','.')
        if t.startswith(('java.','jdk.','sun.','javax.')): continue
        if t.startswith('org.hibernate'): return 'Hibernate own frames'
        if t.startswith('io.durablebatch'): return 'Durable Batch own frames'
        if t.startswith('org.postgresql'): return 'pgjdbc'
        if t.startswith(('com.arjuna','io.agroal','io.quarkus.narayana','org.jboss.tm','com.arjuna')): return 'Narayana/Agroal'
        if t.startswith('io.quarkus.arc'): return 'ArC'
        if t.startswith(('org.jboss.logging','org.jboss.logmanager')): return 'logging'
        return 'other: '+'.'.join(t.split('.')[:2])
    return 'JDK only (class loading, JIT-less JDK code)'
SQL=re.compile(r'io\.durablebatch\.runtime\.sql\.|io\.durablebatch\.runtime\.repository\.(RepositoryCallInterceptor|PostgresJobRepository)|_Subclass|ClientProxy|InterceptedMethod')
def db(frames):
    for f in frames:
        m=f['method']; t=m['type']['name'].replace('/','.')
        if t.startswith('io.durablebatch') and not SQL.search(t) and '$$Lambda' not in t and 'benchmarks' not in t:
            return t+'.'+m['name']
    return None
bylib=collections.Counter(); bydb=collections.Counter(); thr=collections.Counter(); top=collections.Counter()
for e in evs:
    fr=e['values']['stackTrace']['frames'] if e['values'].get('stackTrace') else []
    bylib[lib(fr)]+=1
    d=db(fr); bydb[d or '(no Durable Batch frame)']+=1
    t=e['values'].get('sampledThread') or {}
    name=(t.get('javaName') or t.get('osName') or '?')
    thr[re.sub(r'\d+','N',name)]+=1
    if fr:
        m=fr[0]['method']; top[m['type']['name'].replace('/','.')+'.'+m['name']]+=1
n=len(evs)
def show(title,c,k=30):
    print('\n== '+title); print(n,'samples')
    for key,v in c.most_common(k): print('%6d %5.1f%% %s'%(v,100*v/n,key))
show('By library (innermost non-JDK frame)',bylib)
show('By thread',thr,10)
show('By the innermost Durable Batch frame above the SQL layer',bydb,30)
show('Top frames (self)',top,25)
