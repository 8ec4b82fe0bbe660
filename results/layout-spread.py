"""Does the function layout of the test binary move BenchmarkHandleCrossThread?

Input: rounds in which every layout seed's binary (go test -c
-ldflags=-randlayout=SEED; seed 0 is the default layout) ran once, headed
"# round R seed S". Each value is divided by its round's median over the
seeds, which takes out the machine's drift between rounds. Printed per
configuration and case: the seeds' medians of those values, their spread,
and the p-value of Friedman's statistic (the seeds' squared rank sums within
rounds) under a permutation of the seed labels within each round (5000
permutations, seed 1).

Assumptions: within a round the seeds' order is rotated, so no seed always
runs first; rounds are independent blocks. The test asks whether any seed
differs; it does not say which.
"""
import random
import re
import statistics as st
import sys

if len(sys.argv) != 2:
    print("usage: layout-spread.py ROUNDS-FILE (rounds headed '# round R seed S')", file=sys.stderr)
    sys.exit(2)

data={}
for line in open(sys.argv[1]):
    m=re.match(r'# round (\d+) seed (\d+)',line)
    if m: r,s=int(m.group(1)),int(m.group(2));continue
    m=re.match(r'BenchmarkHandleCrossThread/(\S+)/(\S+)-\d+\s+\d+\s+([\d.]+) ns/op',line)
    if m: data[(r,s,m.group(1),m.group(2))]=float(m.group(3))
rounds=sorted(set(k[0] for k in data)); seeds=sorted(set(k[1] for k in data)); cfgs=sorted(set(k[2] for k in data))
random.seed(1)
def friedman(blocks):
    rs=[0.0]*len(seeds)
    for b in blocks:
        order=sorted(range(len(b)),key=lambda i:b[i])
        for rank,i in enumerate(order): rs[i]+=rank
    return sum(x*x for x in rs)
for g in cfgs:
  for case in ['boxroot','boxroot-handle','ratio']:
    blocks=[]
    for r in rounds:
        try:
            b=[data[(r,s,g,'boxroot-handle')]/data[(r,s,g,'boxroot')] if case=='ratio' else data[(r,s,g,case)] for s in seeds]
        except KeyError: continue
        m=st.median(b); blocks.append([x/m for x in b])
    if not blocks: continue
    meds=[st.median([b[i] for b in blocks]) for i in range(len(seeds))]
    obs=friedman(blocks); ge=0
    for _ in range(5000):
        perm=[random.sample(b,len(b)) for b in blocks]
        if friedman(perm)>=obs: ge+=1
    print('%-18s %-15s seed medians %s  spread %.1f%%  p=%.4f rounds=%d'%(g,case,' '.join('%.3f'%x for x in meds),100*(max(meds)/min(meds)-1),(ge+1)/5001,len(blocks)))
