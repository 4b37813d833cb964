"""Split a dataset (rows with index % 3 != 0 train, == 0 test), write ARFFs, run Weka 3.6 JRip
with default options for seeds 1..10 and print the test accuracy of each run."""
import re, subprocess, sys, os

def read_arff(path):
    header, rows, in_data = [], [], False
    for line in open(path):
        s = line.strip()
        if not s or s.startswith('%'):
            continue
        if in_data:
            rows.append(s)
        else:
            header.append(s)
            if s.lower().startswith('@data'):
                in_data = True
    return header, rows

def csv_to_arff(path):
    lines = [l.strip() for l in open(path) if l.strip()]
    names = lines[0].split(',')
    rows = [l.split(',') for l in lines[1:]]
    header = ['@relation data']
    for c, name in enumerate(names):
        vals = []
        for r in rows:
            if r[c] not in vals:
                vals.append(r[c])
        numeric = all(re.fullmatch(r'-?[0-9.eE+-]+', v) for v in vals) and c < len(names) - 1
        header.append(f"@attribute '{name}' " + ('numeric' if numeric else '{' + ','.join(f"'{v}'" for v in vals) + '}'))
    header.append('@data')
    return header, [','.join(r) for r in rows]

path = sys.argv[1]
name = os.path.basename(path).rsplit('.', 1)[0]
header, rows = read_arff(path) if path.endswith('.arff') else csv_to_arff(path)
out = f'splits'
os.makedirs(out, exist_ok=True)
train = [r for i, r in enumerate(rows) if i % 3 != 0]
test = [r for i, r in enumerate(rows) if i % 3 == 0]
for part, data in (('train', train), ('test', test)):
    with open(f'{out}/{name}-{part}.arff', 'w') as f:
        f.write('\n'.join(header) + '\n' + '\n'.join(data) + '\n')
accs = []
for seed in range(1, 11):
    cmd = ['java', '-cp', '/usr/share/java/weka.jar', 'weka.classifiers.rules.JRip',
           '-F', '3', '-N', '2.0', '-O', '2', '-S', str(seed),
           '-t', f'{out}/{name}-train.arff', '-T', f'{out}/{name}-test.arff', '-o']
    text = subprocess.run(cmd, capture_output=True, text=True).stdout
    m = re.findall(r'Correctly Classified Instances\s+(\d+)\s+([0-9.]+)', text)
    accs.append(float(m[-1][0]) / len(test))
print(name, 'test rows', len(test), 'JRip accuracies seeds 1..10:', ' '.join(f'{a:.4f}' for a in accs),
      'mean', f'{sum(accs)/len(accs):.4f}')
