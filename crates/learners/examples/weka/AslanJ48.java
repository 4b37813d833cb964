// Times Weka J48 on the Aslan protocol: 30 models, each on 29/30 of rest.arff, scoring test.arff.
import weka.core.Instances;
import weka.classifiers.trees.J48;
import java.io.*;
public class AslanJ48 {
  public static void main(String[] a) throws Exception {
    Instances rest = new Instances(new BufferedReader(new FileReader(a[0])));
    Instances test = new Instances(new BufferedReader(new FileReader(a[1])));
    rest.setClassIndex(rest.numAttributes()-1); test.setClassIndex(test.numAttributes()-1);
    long start = System.nanoTime(); double correct = 0; int nodes = 0;
    for (int i = 0; i < 30; i++) {
      Instances train = rest.trainCV(30, i);
      J48 tree = new J48(); tree.buildClassifier(train);
      nodes += (int) tree.measureTreeSize();
      for (int r = 0; r < test.numInstances(); r++) {
        double[] p = tree.distributionForInstance(test.instance(r));
        int best = 0; for (int c = 1; c < p.length; c++) if (p[c] > p[best]) best = c;
        if (best == (int) test.instance(r).classValue()) correct++;
      }
    }
    System.out.printf("weka J48: 30 models %.2f s, mean accuracy %.4f, mean size %.1f%n",
      (System.nanoTime()-start)/1e9, correct/30/test.numInstances(), nodes/30.0);
  }
}
