// Prints Weka 3.6 reference values for the k-NN tests:
//  - for every test row, the 25 nearest training rows under weka.core.EuclideanDistance
//    (ranges from the training data only), sorted by distance then training index;
//  - IBk distributions (full precision) for the given option sets.
// Usage: java -cp weka.jar:. WekaKnnReference train.arff test.arff
import weka.core.*;
import weka.classifiers.lazy.IBk;
import java.io.*;
import java.util.*;

public class WekaKnnReference {
  public static void main(String[] args) throws Exception {
    Instances train = new Instances(new BufferedReader(new FileReader(args[0])));
    Instances test = new Instances(new BufferedReader(new FileReader(args[1])));
    train.setClassIndex(train.numAttributes() - 1);
    test.setClassIndex(test.numAttributes() - 1);
    EuclideanDistance distance = new EuclideanDistance(train);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < test.numInstances(); i++) {
      final double[] d = new double[train.numInstances()];
      Integer[] order = new Integer[train.numInstances()];
      for (int j = 0; j < train.numInstances(); j++) {
        d[j] = distance.distance(test.instance(i), train.instance(j));
        order[j] = j;
      }
      Arrays.sort(order, (a, b) -> d[a] != d[b] ? Double.compare(d[a], d[b]) : Integer.compare(a, b));
      out.append("neighbours ").append(i);
      for (int r = 0; r < Math.min(25, order.length); r++) {
        out.append(' ').append(order[r]).append(':').append(Double.toString(d[order[r]]));
      }
      out.append('\n');
    }
    String[][] optionSets = { {"-K", "5"}, {"-K", "5", "-I"}, {"-K", "1"} };
    for (String[] options : optionSets) {
      IBk ibk = new IBk();
      ibk.setOptions(options.clone());
      ibk.buildClassifier(new Instances(train));
      for (int i = 0; i < test.numInstances(); i++) {
        double[] p = ibk.distributionForInstance(test.instance(i));
        out.append("ibk ").append(String.join("_", options)).append(' ').append(i);
        for (double v : p) out.append(' ').append(Double.toString(v));
        out.append('\n');
      }
    }
    System.out.print(out);
  }
}
