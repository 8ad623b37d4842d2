// Benchmark helper: trains and tests a Weka 3.6 classifier on exported folds and prints the
// time of each. Usage: java WekaTime CLASSNAME DIR PREFIX FOLDS [weka options...]
// reads DIR/PREFIX-r0-f{k}-train.arff and -test.arff (class = last attribute).
import java.io.BufferedReader;
import java.io.FileReader;

import weka.classifiers.Classifier;
import weka.core.Instances;

public class WekaTime {
    static Instances read(String path) throws Exception {
        Instances d = new Instances(new BufferedReader(new FileReader(path)));
        d.setClassIndex(d.numAttributes() - 1);
        return d;
    }

    public static void main(String[] args) throws Exception {
        String cls = args[0], dir = args[1], prefix = args[2];
        int folds = Integer.parseInt(args[3]);
        String[] opts = java.util.Arrays.copyOfRange(args, 4, args.length);
        double fit = 0, test = 0;
        long errors = 0, n = 0;
        for (int k = 0; k < folds; k++) {
            Instances tr = read(dir + "/" + prefix + "-r0-f" + k + "-train.arff");
            Instances te = read(dir + "/" + prefix + "-r0-f" + k + "-test.arff");
            Classifier c = Classifier.forName(cls, opts.clone());
            long t0 = System.nanoTime();
            c.buildClassifier(tr);
            long t1 = System.nanoTime();
            for (int i = 0; i < te.numInstances(); i++) {
                double[] d = c.distributionForInstance(te.instance(i));
                int best = 0;
                for (int j = 1; j < d.length; j++) if (d[j] > d[best]) best = j;
                if (best != (int) te.instance(i).classValue()) errors++;
                n++;
            }
            long t2 = System.nanoTime();
            fit += (t1 - t0) / 1e9;
            test += (t2 - t1) / 1e9;
        }
        System.out.printf("%.3f %.3f %.4f%n", fit, test, errors / (double) n);
    }
}
