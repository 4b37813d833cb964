"""Two published tables of classifier accuracies used as inputs by the generators beside this file.

GH2008: Garcia & Herrera (2008), "An extension on Statistical comparisons of classifiers over multiple
data sets for all pairwise comparisons", JMLR 9: accuracy of C4.5, 1-NN, naive Bayes, Kernel and CN2 on 30
UCI data sets. GH2010: Garcia, Fernandez, Luengo & Herrera (2010), Information Sciences 180: accuracy of
PDFC, NNEP, IS-CHC+1NN and FH-GBML on 24 data sets. Both as distributed with the scmamp R package
(data.gh.2008, data.gh.2010), read with R's load() and written out here unchanged.
"""

GH2008_LEARNERS = ['C4.5', 'k-NN(k=1)', 'NaiveBayes', 'Kernel', 'CN2']
GH2008 = [
    ('Abalone*', [0.219, 0.202, 0.249, 0.165, 0.261]),
    ('Adult*', [0.803, 0.75, 0.813, 0.692, 0.798]),
    ('Australian', [0.859, 0.814, 0.845, 0.542, 0.816]),
    ('Autos', [0.809, 0.774, 0.673, 0.275, 0.785]),
    ('Balance', [0.768, 0.79, 0.727, 0.872, 0.706]),
    ('Breast', [0.759, 0.654, 0.734, 0.703, 0.714]),
    ('Bupa', [0.693, 0.611, 0.572, 0.689, 0.572]),
    ('Cleveland', [0.544, 0.531, 0.558, 0.439, 0.541]),
    ('Dermatology', [0.945, 0.954, 0.978, 0.541, 0.858]),
    ('German', [0.725, 0.705, 0.739, 0.625, 0.717]),
    ('Glass', [0.674, 0.736, 0.721, 0.356, 0.704]),
    ('Hayes-Roth', [0.801, 0.357, 0.52, 0.309, 0.52]),
    ('Heart', [0.785, 0.77, 0.841, 0.659, 0.759]),
    ('Led7Digit', [0.71, 0.402, 0.728, 0.12, 0.674]),
    ('Letter*', [0.691, 0.827, 0.667, 0.527, 0.638]),
    ('Lymphography', [0.743, 0.739, 0.83, 0.549, 0.746]),
    ('Mushrooms*', [0.99, 0.482, 0.941, 0.857, 0.99]),
    ('OptDigits*', [0.867, 0.098, 0.915, 0.986, 0.784]),
    ('Satimage*', [0.821, 0.872, 0.815, 0.885, 0.778]),
    ('SpamBase*', [0.893, 0.824, 0.902, 0.739, 0.885]),
    ('Splice*', [0.799, 0.655, 0.925, 0.517, 0.755]),
    ('Tic-tac-toe', [0.845, 0.731, 0.693, 0.653, 0.704]),
    ('Vehicle', [0.741, 0.701, 0.591, 0.663, 0.619]),
    ('Vowel', [0.799, 0.994, 0.603, 0.269, 0.621]),
    ('Wine', [0.949, 0.955, 0.989, 0.77, 0.954]),
    ('Yeast', [0.555, 0.505, 0.569, 0.312, 0.556]),
    ('Zoo', [0.928, 0.928, 0.945, 0.419, 0.897]),
    ('Car', [0.915, 0.857, 0.86, 0.7, 0.777]),
    ('Crx', [0.855, 0.796, 0.857, 0.607, 0.809]),
    ('Ion', [0.906, 0.359, 0.895, 0.641, 0.918]),
]

GH2010_LEARNERS = ['PDFC', 'NNEP', 'IS_CHC_1NN', 'FH_GBML']
GH2010 = [
    ('Adult', [0.752, 0.773, 0.785, 0.795]),
    ('Breast', [0.727, 0.748, 0.724, 0.713]),
    ('Bupa', [0.736, 0.716, 0.585, 0.638]),
    ('Car', [0.994, 0.861, 0.88, 0.791]),
    ('Cleveland', [0.508, 0.553, 0.575, 0.515]),
    ('Contraceptive', [0.535, 0.536, 0.513, 0.471]),
    ('Dermatology', [0.967, 0.871, 0.954, 0.532]),
    ('Ecoli', [0.831, 0.807, 0.819, 0.768]),
    ('German', [0.745, 0.702, 0.719, 0.705]),
    ('Glass', [0.709, 0.572, 0.669, 0.607]),
    ('Haberman', [0.722, 0.728, 0.725, 0.732]),
    ('Iris', [0.967, 0.947, 0.953, 0.96]),
    ('Lymphography', [0.832, 0.752, 0.802, 0.691]),
    ('Mushrooms', [0.998, 0.992, 0.482, 0.91]),
    ('Newthyroid', [0.963, 0.963, 0.954, 0.926]),
    ('Penbased', [0.982, 0.953, 0.932, 0.63]),
    ('Ring', [0.978, 0.773, 0.834, 0.849]),
    ('Satimage', [0.854, 0.787, 0.841, 0.779]),
    ('Shuttle', [0.965, 0.984, 0.995, 0.947]),
    ('spambase', [0.924, 0.887, 0.861, 0.804]),
    ('Thyroid', [0.929, 0.942, 0.931, 0.921]),
    ('Vehicle', [0.837, 0.643, 0.602, 0.554]),
    ('Wine', [0.972, 0.956, 0.944, 0.922]),
    ('Wisconsin', [0.958, 0.959, 0.964, 0.964]),
]
