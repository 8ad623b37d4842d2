// Test oracle: prints Weka 3.6's class distributions and discretisation cut points at full
// precision (Weka's own -p output has only 3 decimals). Compiled by the tests against weka.jar.
//
//   java WekaOracle dist NaiveBayes|AODE train.arff test.arff [weka options...]
//   java WekaOracle cuts eqfreq|mdl data.arff      (class = last attribute)
//   java WekaOracle ttest < cases      (a line "RATIO ALPHA x1,x2,... y1,y2,...": PairedStatsCorrected's
//                                       two-tailed p and significance, +1 if x's mean is higher, -1 if lower)
import java.io.BufferedReader;
import java.io.FileReader;

import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;
import weka.filters.Filter;

public class WekaOracle {
    static Instances read(String path) throws Exception {
        Instances data = new Instances(new BufferedReader(new FileReader(path)));
        data.setClassIndex(data.numAttributes() - 1);
        return data;
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("dist")) {
            Classifier c = Classifier.forName("weka.classifiers.bayes." + args[1],
                    java.util.Arrays.copyOfRange(args, 4, args.length));
            Instances train = read(args[2]);
            Instances test = read(args[3]);
            c.buildClassifier(train);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < test.numInstances(); i++) {
                double[] d = c.distributionForInstance(test.instance(i));
                for (int k = 0; k < d.length; k++) {
                    if (k > 0) out.append(' ');
                    out.append(Double.toString(d[k]));
                }
                out.append('\n');
            }
            System.out.print(out);
        } else if (args[0].equals("ttest")) {
            BufferedReader in = new BufferedReader(new java.io.InputStreamReader(System.in));
            StringBuilder out = new StringBuilder();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.trim().split(" ");
                String[] x = f[2].split(","), y = f[3].split(",");
                weka.experiment.PairedStatsCorrected s =
                        new weka.experiment.PairedStatsCorrected(Double.parseDouble(f[1]), Double.parseDouble(f[0]));
                for (int i = 0; i < x.length; i++) s.add(Double.parseDouble(x[i]), Double.parseDouble(y[i]));
                s.calculateDerived();
                out.append(Double.toString(s.differencesProbability)).append(' ')
                   .append(s.differencesSignificance).append('\n');
            }
            System.out.print(out);
        } else if (args[0].equals("cuts")) {
            Instances data = read(args[2]);
            Filter f;
            if (args[1].equals("eqfreq")) {
                weka.filters.unsupervised.attribute.Discretize d = new weka.filters.unsupervised.attribute.Discretize();
                d.setUseEqualFrequency(true);
                d.setBins(5);
                d.setInputFormat(data);
                Filter.useFilter(data, d);
                for (int a = 0; a < data.numAttributes() - 1; a++) {
                    if (data.attribute(a).isNumeric()) print(a, d.getCutPoints(a));
                }
            } else {
                weka.filters.supervised.attribute.Discretize d = new weka.filters.supervised.attribute.Discretize();
                d.setInputFormat(data);
                Filter.useFilter(data, d);
                for (int a = 0; a < data.numAttributes() - 1; a++) {
                    if (data.attribute(a).isNumeric()) print(a, d.getCutPoints(a));
                }
            }
        }
    }

    static void print(int a, double[] cuts) {
        StringBuilder s = new StringBuilder(Integer.toString(a));
        if (cuts != null) for (double c : cuts) s.append(' ').append(Double.toString(c));
        System.out.println(s);
    }
}
