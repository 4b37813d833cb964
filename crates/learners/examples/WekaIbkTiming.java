// Times Weka 3.6 IBk on one model of the Aslan protocol: shuffle (seed 2009), 2/3 pool, 1/3
// test; for each of MODELS folds: train on 29/30 of the pool; IBk -K 21 on the 1/30 validation fold (the k-selection
// work), then IBk -K 5 on the test set. Usage: java WekaIbkTiming file.csv linear|kdtree MODELS
import weka.core.*;
import weka.core.converters.CSVLoader;
import weka.core.neighboursearch.KDTree;
import weka.classifiers.lazy.IBk;
import java.io.File;
import java.util.Random;
import java.lang.management.ManagementFactory;

public class WekaIbkTiming {
  public static void main(String[] args) throws Exception {
    CSVLoader loader = new CSVLoader();
    loader.setSource(new File(args[0]));
    Instances all = loader.getDataSet();
    all.setClassIndex(all.numAttributes() - 1);
    all.randomize(new Random(2009));
    int pool = all.numInstances() * 2 / 3;
    boolean kd = args.length > 1 && args[1].equals("kdtree");
    int models = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    long start = System.nanoTime();
    long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    int wrong = 0, scored = 0;
    Instances train = null, validation = null, test = null;
    for (int fold = 0; fold < models; fold++) {
      train = new Instances(all, 0); validation = new Instances(all, 0); test = new Instances(all, 0);
      for (int i = 0; i < all.numInstances(); i++) {
        if (i >= pool) test.add(all.instance(i));
        else if (i % 30 == fold % 30) validation.add(all.instance(i));
        else train.add(all.instance(i));
      }
      for (int[] pass : new int[][] {{21, 0}, {5, 1}}) {
        IBk ibk = new IBk(pass[0]);
        if (kd) ibk.setNearestNeighbourSearchAlgorithm(new KDTree());
        ibk.buildClassifier(train);
        Instances target = pass[1] == 0 ? validation : test;
        for (int i = 0; i < target.numInstances(); i++) {
          double[] p = ibk.distributionForInstance(target.instance(i));
          if (pass[1] == 1) {
            scored++;
            if (Utils.maxIndex(p) != (int) target.instance(i).classValue()) wrong++;
          }
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1e9;
    System.out.printf("%s (%s): train %d, validation %d, test %d: %d models: %.2f s CPU (main thread; %.3f s per model), %.2f s wall; test error (k=5) %.4f%n",
        args[0], kd ? "KDTree" : "LinearNNSearch", train.numInstances(), validation.numInstances(),
        test.numInstances(), models, cpu, cpu / models, seconds, wrong / (double) scored);
  }
}
