import java.io.*;
import java.lang.reflect.Field;
import weka.core.*;
import weka.classifiers.functions.Logistic;

/** Fits Weka's Logistic (-R 1e-8 -M -1) on a training ARFF and prints its objective,
 *  the number of BFGS iterations (from the debug trace) and its coefficients. */
public class WekaLogisticTrace {
  public static void main(String[] args) throws Exception {
    Instances train = new Instances(new BufferedReader(new FileReader(args[0])));
    train.setClassIndex(train.numAttributes() - 1);
    Logistic logistic = new Logistic();
    logistic.setOptions(new String[] {"-R", "1.0E-8", "-M", "-1", "-D"});
    PrintStream err = System.err, out = System.out;
    ByteArrayOutputStream trace = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(trace);
    System.setErr(capture); System.setOut(capture);
    logistic.buildClassifier(train);
    System.setErr(err); System.setOut(out);
    String text = trace.toString();
    int iterations = 0, restarts = 0, idx = 0;
    while ((idx = text.indexOf("Iteration # ", idx)) >= 0) { iterations++; idx++; }
    idx = 0;
    while ((idx = text.indexOf("200 iterations finished", idx)) >= 0) { restarts++; idx++; }
    Field ll = Logistic.class.getDeclaredField("m_LL");
    ll.setAccessible(true);
    System.out.println("objective " + (-(Double) ll.get(logistic)));
    System.out.println("iterations " + iterations + " restarts " + restarts);
    double[][] par = logistic.coefficients();
    for (int j = 0; j < par.length; j++) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < par[j].length; c++) line.append(par[j][c]).append(' ');
      System.out.println(line.toString().trim());
    }
    if (args.length > 1) {
      try (PrintWriter w = new PrintWriter(args[1])) { w.print(text); }
    }
  }
}
