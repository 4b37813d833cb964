import weka.classifiers.rules.RuleStats;
/** Prints Weka 3.6 RuleStats.subsetDL and dataDL for fixed inputs. */
public class DlReference {
  public static void main(String[] a) {
    double[][] subset = {{10, 3, 0.2}, {100, 0, 0.05}, {57, 12, 0.5}, {7.5, 2.5, 0.3}};
    for (double[] s : subset)
      System.out.println("subsetDL(" + s[0] + ", " + s[1] + ", " + s[2] + ") = " + RuleStats.subsetDL(s[0], s[1], s[2]));
    double[][] data = {{0.5, 0, 14, 0, 5}, {0.3, 20, 80, 3, 7}, {0.25, 60, 40, 10, 4}, {0.4, 33, 117, 1, 0}, {0.1, 50, 50, 5, 5}};
    for (double[] d : data)
      System.out.println("dataDL(" + d[0] + ", " + d[1] + ", " + d[2] + ", " + d[3] + ", " + d[4] + ") = " + RuleStats.dataDL(d[0], d[1], d[2], d[3], d[4]));
  }
}
