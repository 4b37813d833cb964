# Writes the Aslan-protocol files used by examples/aslan_speed.rs and AslanJ48.java for an
# all-numeric shipped dataset (class last): NAME-aslan-test.arff (1/3 of the rows) and
# NAME-aslan-rest.arff (the other 2/3), after a shuffle with Python's random.Random(1).
# Usage: python3 aslan_split.py /work/shared/datasets/magic.csv
import random, sys, os
path = sys.argv[1]
name = os.path.splitext(os.path.basename(path))[0]
lines = open(path).read().split('\n')
header = lines[0].split(',')
rows = [l for l in lines[1:] if l.strip()]
classes = sorted(set(r.rsplit(',', 1)[1] for r in rows))
random.Random(1).shuffle(rows)
t = len(rows) // 3
for part, chosen in (('test', rows[:t]), ('rest', rows[t:])):
    with open(f'{name}-aslan-{part}.arff', 'w') as f:
        f.write(f'@relation {name}\n')
        for h in header[:-1]:
            f.write(f'@attribute {h} numeric\n')
        f.write('@attribute class {' + ','.join(classes) + '}\n@data\n')
        f.write('\n'.join(chosen) + '\n')
