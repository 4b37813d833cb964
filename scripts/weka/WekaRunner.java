// Runs one Weka 3.6 classifier on a list of (train, test) ARFF pairs and writes, for each pair,
// the full-precision class distribution of every test instance as CSV, plus the model's text.
// Used by scripts/weka_compare.py so that Weka and this project see identical splits and the
// same AUC/accuracy code scores both. It only calls Weka's public API.
//
// Usage: java -cp weka.jar:DIR WekaRunner CLASSNAME "OPTIONS" train1.arff test1.arff out1.csv [...]
// Writes out.csv (one row per test instance: the class probabilities in header order) and
// out.csv.model.txt (the model's toString); prints per-pair `out<TAB>fit s<TAB>predict s<TAB>fit +
// predict CPU s` on stdout, the last the process's CPU time (all the JVM's threads: the JIT
// compiler's and the collector's work for this fit counts), as the project's `predict` example
// prints its own.

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;

public class WekaRunner {
    public static void main(String[] args) throws Exception {
        if (args.length < 5 || (args.length - 2) % 3 != 0) {
            System.err.println("usage: WekaRunner CLASSNAME OPTIONS (train test out)+");
            System.exit(2);
        }
        // -Dfresh_copies=true: each test instance is scored by a fresh copy of the classifier as
        // built (scripts/fidelity/ibk_ranges.py: IBk widens its ranges with each instance scored).
        boolean fresh = Boolean.getBoolean("fresh_copies");
        String className = args[0];
        String options = args[1];
        for (int i = 2; i < args.length; i += 3) {
            Instances train = read(args[i]);
            Instances test = read(args[i + 1]);
            Classifier classifier = Classifier.forName(className, Utils.splitOptions(options));
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            classifier.buildClassifier(train);
            long fitted = System.nanoTime();
            // Score every row first and write afterwards, so that the timed part is the
            // classifier's own work (the project's `predict` example times the same part).
            double[][] distributions = new double[test.numInstances()][];
            for (int row = 0; row < test.numInstances(); row++) {
                Classifier scorer = fresh ? Classifier.makeCopy(classifier) : classifier;
                distributions[row] = scorer.distributionForInstance(test.instance(row));
            }
            long predicted = System.nanoTime();
            long cpu = processCpuNanos() - cpuStart;
            PrintWriter out = new PrintWriter(args[i + 2]);
            for (double[] distribution : distributions) {
                StringBuilder line = new StringBuilder();
                for (int c = 0; c < distribution.length; c++) {
                    if (c > 0) line.append(',');
                    line.append(Double.toString(distribution[c]));
                }
                out.println(line);
            }
            out.close();
            PrintWriter model = new PrintWriter(args[i + 2] + ".model.txt");
            model.println(classifier.toString());
            model.close();
            System.out.println(args[i + 2] + "\t" + (fitted - start) / 1e9 + "\t" + (predicted - fitted) / 1e9 + "\t" + cpu / 1e9);
        }
    }

    /** The whole process's CPU time in nanoseconds (HotSpot's operating-system bean). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static Instances read(String path) throws Exception {
        BufferedReader reader = new BufferedReader(new FileReader(path));
        Instances data = new Instances(reader);
        reader.close();
        data.setClassIndex(data.numAttributes() - 1);
        return data;
    }
}
