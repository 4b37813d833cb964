# Split Weka example ARFF files into train/test halves (deterministic shuffle) for J48 checks.
import random, sys, os
E = '/usr/share/doc/weka/examples'  # Weka 3.6.14 (Debian package weka)
out = '.'  # run from crates/learners/tests/data
for name in sys.argv[1:]:
    text=open(f'{E}/{name}.arff').read()
    lower=text.lower()
    i=lower.index('@data')
    header=text[:i+5]
    rows=[l for l in text[i+5:].splitlines() if l.strip() and not l.strip().startswith('%')]
    random.Random(7).shuffle(rows)
    k=len(rows)*2//3
    open(f'{out}/{name}-train.arff','w').write(header+'\n'+'\n'.join(rows[:k])+'\n')
    open(f'{out}/{name}-test.arff','w').write(header+'\n'+'\n'.join(rows[k:])+'\n')
