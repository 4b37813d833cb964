import weka.classifiers.rules.Rule;
import weka.classifiers.rules.RuleStats;
import weka.core.FastVector;
/** Prints Weka 3.6 RuleStats.theoryDL for rules of k conditions out of `total` possible ones. */
public class TheoryReference {
  static class SizedRule extends Rule {
    final double k;
    SizedRule(double k) { this.k = k; }
    public boolean covers(weka.core.Instance i) { return false; }
    public void grow(weka.core.Instances d) {}
    public boolean hasAntds() { return k > 0; }
    public double getConsequent() { return 0; }
    public double size() { return k; }
    public String getRevision() { return "0"; }
  }
  public static void main(String[] a) {
    double[][] cases = {{1, 26}, {2, 26}, {3, 120}, {5, 2000}, {0, 10}};
    for (double[] c : cases) {
      FastVector rules = new FastVector();
      rules.addElement(new SizedRule(c[0]));
      RuleStats stats = new RuleStats(null, rules);
      stats.setNumAllConds(c[1]);
      System.out.println("theoryDL(k=" + c[0] + ", total=" + c[1] + ") = " + stats.theoryDL(0));
    }
  }
}
