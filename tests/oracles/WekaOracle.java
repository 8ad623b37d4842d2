// Test oracle: prints Weka 3.6's class distributions and discretisation cut points at full
// precision (Weka's own -p output has only 3 decimals). Compiled by the tests against weka.jar.
//
//   java WekaOracle dist NaiveBayes|AODE train.arff test.arff [weka options...]
//   java WekaOracle cuts eqfreq|mdl data.arff      (class = last attribute)
//   java WekaOracle ttest cases.txt    (a line "RATIO ALPHA x1,x2,... y1,y2,...": PairedStatsCorrected's
//                                       two-tailed p and significance, +1 if x's mean is higher, -1 if lower)
//   java WekaOracle serve     one JVM for many requests (the tests' `weka` fixture): each stdin
//                             line is the arguments of one call above, tab-separated; the answer
//                             is its output, then one line "\u0001ok" or "\u0001error <message>"
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.io.PrintStream;

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
        if (!args[0].equals("serve")) {
            System.out.print(run(args));
            return;
        }
        PrintStream answers = System.out;
        System.setOut(System.err);  // whatever Weka itself prints stays out of the answers
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in));
        for (String line = requests.readLine(); line != null; line = requests.readLine()) {
            try {
                answers.print(run(line.split("\t")));
                answers.println("\u0001ok");
            } catch (Exception e) {
                answers.println("\u0001error " + e.toString().replace('\n', ' '));
            }
            answers.flush();
        }
    }

    static String run(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        if (args[0].equals("dist")) {
            Classifier c = Classifier.forName("weka.classifiers.bayes." + args[1],
                    java.util.Arrays.copyOfRange(args, 4, args.length));
            Instances train = read(args[2]);
            Instances test = read(args[3]);
            c.buildClassifier(train);
            for (int i = 0; i < test.numInstances(); i++) {
                double[] d = c.distributionForInstance(test.instance(i));
                for (int k = 0; k < d.length; k++) {
                    if (k > 0) out.append(' ');
                    out.append(Double.toString(d[k]));
                }
                out.append('\n');
            }
        } else if (args[0].equals("ttest")) {
            BufferedReader in = new BufferedReader(new FileReader(args[1]));
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
            in.close();
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
                    if (data.attribute(a).isNumeric()) print(out, a, d.getCutPoints(a));
                }
            } else {
                weka.filters.supervised.attribute.Discretize d = new weka.filters.supervised.attribute.Discretize();
                d.setInputFormat(data);
                Filter.useFilter(data, d);
                for (int a = 0; a < data.numAttributes() - 1; a++) {
                    if (data.attribute(a).isNumeric()) print(out, a, d.getCutPoints(a));
                }
            }
        } else {
            throw new IllegalArgumentException("unknown request " + args[0]);
        }
        return out.toString();
    }

    static void print(StringBuilder out, int a, double[] cuts) {
        out.append(a);
        if (cuts != null) for (double c : cuts) out.append(' ').append(Double.toString(c));
        out.append('\n');
    }
}
