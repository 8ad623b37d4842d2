"""Weka 3.6's Experimenter as an oracle: its JVM command line and PairedCorrectedTTester's marks."""

import csv
import subprocess

from tests.conftest import WEKA_JAR

JAVA = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", str(WEKA_JAR)]  # short runs: no C2 JIT


def paired_corrected_tester(arff, base: int, alpha: float) -> dict[tuple[str, int], str]:
    """PairedCorrectedTTester's marks on a results ARFF (key columns 1–4, the value in column 7)
    against resultset `base` (1-based): {(data set, other resultset): 'v' (other significantly
    higher), '*' (lower) or ''}."""
    out = subprocess.run([*JAVA, "weka.experiment.PairedCorrectedTTester", "-t", str(arff),
                          "-D", "1", "-R", "2", "-F", "3", "-G", "4", "-c", "7", "-b", str(base), "-S", str(alpha),
                          "-csv"], check=True, capture_output=True, text=True).stdout.splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith("Dataset,"))
    header = next(csv.reader([out[start]]))
    others = [int(h.strip("[]")) for h in header[2::2]]
    marks = {}
    for line in out[start + 1:]:
        cells = next(csv.reader([line], quotechar="'"))
        if cells[0].startswith("[v/ /*]"):
            break
        for other, mark in zip(others, cells[3::2]):
            marks[(cells[0], other)] = mark.strip()
    return marks
