// Prints Weka's class distribution for every test instance at full precision.
// Usage: java -cp weka.jar:. WekaProbabilities train.arff test.arff ClassName [options...]
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;
import java.io.FileReader;

public class WekaProbabilities {
    public static void main(String[] args) throws Exception {
        Instances train = new Instances(new FileReader(args[0]));
        Instances test = new Instances(new FileReader(args[1]));
        train.setClassIndex(train.numAttributes() - 1);
        test.setClassIndex(test.numAttributes() - 1);
        String[] options = new String[args.length - 3];
        System.arraycopy(args, 3, options, 0, options.length);
        Classifier classifier = Classifier.forName(args[2], options);
        classifier.buildClassifier(train);
        for (int i = 0; i < test.numInstances(); i++) {
            double[] distribution = classifier.distributionForInstance(test.instance(i));
            StringBuilder line = new StringBuilder();
            for (int j = 0; j < distribution.length; j++) {
                if (j > 0) line.append(' ');
                line.append(Double.toString(distribution[j]));
            }
            System.out.println(line);
        }
    }
}
