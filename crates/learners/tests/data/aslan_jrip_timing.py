"""Aslan et al. (2009) protocol splits for the RIPPER speed check, and Weka JRip's timing on them.

Usage: python3 aslan_jrip_timing.py DATASET.csv OUT_DIR [MODELS]

Shuffles the rows with random.Random(1), keeps the first 2/3 as the training part and the rest as
the test part, cuts the training part into 30 folds (round robin) and for model k trains on every
fold but k (29/30 of 2/3 of the data). Writes OUT_DIR/NAME-folds.txt (one line of training row
indices per model, then a last line with the test row indices) for
`cargo run -p learners --example ripper_aslan_speed`, writes the ARFF files for Weka, runs
`weka.classifiers.rules.JRip -F 3 -N 2.0 -O 2 -S 1` on the first MODELS (default 30) models and
prints Weka's own "Time taken to build model" for each, their sum, and the test accuracy.
"""
import os, random, re, subprocess, sys

path, out = sys.argv[1], sys.argv[2]
models = int(sys.argv[3]) if len(sys.argv) > 3 else 30
name = os.path.basename(path).rsplit('.', 1)[0]
os.makedirs(out, exist_ok=True)
lines = [l.strip() for l in open(path) if l.strip()]
names = lines[0].split(',')
rows = [l.split(',') for l in lines[1:]]
header = ['@relation ' + name]
for c, col in enumerate(names):
    values = list(dict.fromkeys(r[c] for r in rows))
    numeric = c < len(names) - 1 and all(re.fullmatch(r'-?[0-9.eE+-]+', v) for v in values)
    header.append(f"@attribute '{col}' " + ('numeric' if numeric else '{' + ','.join(f"'{v}'" for v in values) + '}'))
header.append('@data')
order = list(range(len(rows)))
random.Random(1).shuffle(order)
cut = len(order) * 2 // 3
train_part, test_part = order[:cut], order[cut:]
folds = [train_part[k::30] for k in range(30)]
train_sets = [sorted(i for j in range(30) if j != k for i in folds[j]) for k in range(30)]
with open(f'{out}/{name}-folds.txt', 'w') as f:
    for s in train_sets:
        f.write(' '.join(map(str, s)) + '\n')
    f.write(' '.join(map(str, sorted(test_part))) + '\n')
def write(file, indices):
    with open(file, 'w') as f:
        f.write('\n'.join(header) + '\n' + '\n'.join(','.join(rows[i]) for i in indices) + '\n')
write(f'{out}/{name}-test.arff', sorted(test_part))
total = 0.0
accuracies = []
for k in range(models):
    train_file = f'{out}/{name}-train{k}.arff'
    write(train_file, train_sets[k])
    text = subprocess.run(['java', '-Xmx2g', '-cp', '/usr/share/java/weka.jar',
                           'weka.classifiers.rules.JRip', '-F', '3', '-N', '2.0', '-O', '2', '-S', '1',
                           '-t', train_file, '-T', f'{out}/{name}-test.arff', '-o'],
                          capture_output=True, text=True).stdout
    seconds = float(re.search(r'Time taken to build model: ([0-9.]+)', text).group(1))
    correct = re.findall(r'Correctly Classified Instances\s+(\d+)', text)[-1]
    accuracies.append(int(correct) / len(test_part))
    total += seconds
    print(f'model {k}: build {seconds:.2f} s, test accuracy {accuracies[-1]:.4f}', flush=True)
print(f'{name}: {models} JRip models, total build time {total:.2f} s, '
      f'mean test accuracy {sum(accuracies) / len(accuracies):.4f}')
