"""Benchmark: building synthetic data sets (`synth:ROWSxATTRSxCLASSES[:seed]`) without download."""

import resource
import sys
import time

from bncbench.data.generators import synth


def main(*specs: str) -> None:
    specs = specs or ("synth:1000000x10x10", "synth:5749132x11x2")
    print("| data set | build time (s) | peak RSS (MB) |")
    print("|---|---|---|")
    for s in specs:
        t = time.perf_counter()
        ds = synth(s)
        dt = time.perf_counter() - t
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"| {s} ({ds.n_instances} rows) | {dt:.2f} | {rss:.0f} |")


if __name__ == "__main__":
    main(*sys.argv[1:])
