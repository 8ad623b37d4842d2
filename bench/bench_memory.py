"""Benchmark (issue 40, item 5): a run's peak resident memory, and where in the run it is reached.

    python bench/bench_memory.py CONFIG [--repeat N] [--against TREE ...]
    python bench/bench_memory.py CONFIG --where [--tree TREE]

Without --where: `bncbench run CONFIG --fresh --quiet --jobs 1` as a whole process into a new results
folder, N times (default 3), each tree's run in turn (this tree, then every `--against` checkout of
bncbench, PYTHONPATH=TREE), and the peak RSS of each process (its kernel-reported maximum resident set,
`os.wait4`, what /usr/bin/time -v prints as "Maximum resident set size"): every run and the median.

With --where: the same command once, in a process of its own that samples its own /proc/self/status
every millisecond from a thread and notes, each time the peak (VmHWM) rises, the main thread's
bncbench stack; it prints the resident memory's peak inside each bncbench function (the innermost on
the stack) and the stacks at which the peak rose, the last one being where the process peaked. A
numpy call that holds the GIL is seen when it returns (the stack then is its caller's).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KB = 1024


def command(config: str, results: Path) -> list[str]:
    return ["run", str(Path(config).resolve()), "--results", str(results), "--fresh", "--quiet", "--jobs", "1"]


def peak_kb(config: str, results: Path, tree: Path) -> int:
    """Peak RSS (KB) of one whole `bncbench run` of `tree`'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryFile() as err:
        # run from the results' parent: `python -m` puts the working folder first on the import path
        p = subprocess.Popen([sys.executable, "-m", "bncbench", *command(config, results)], env=env,
                             cwd=results.parent, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            raise SystemExit(f"bncbench run {config} ({tree}) failed ({p.returncode}): "
                             f"{err.read().decode(errors='replace')[-2000:]}")
    return int(usage.ru_maxrss)


def _status() -> tuple[int, int]:
    """(VmRSS, VmHWM) of this process in KB."""
    rss = hwm = 0
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    return rss, hwm


def _stack(frame) -> list[str]:
    """The bncbench frames of a stack, outermost first, as module.function:line."""
    out = []
    while frame is not None:
        name = frame.f_code.co_filename
        if "/bncbench/" in name:
            mod = name.split("/bncbench/", 1)[1].removesuffix(".py").replace("/", ".")
            out.append(f"{mod}.{frame.f_code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return out[::-1]


def where(config: str) -> None:
    """Run CONFIG in this process, sampling its memory (see the module's docstring)."""
    import runpy

    main = threading.main_thread().ident
    rises: list[tuple[float, int, list[str]]] = []  # (seconds, VmHWM KB, stack) at each rise of the peak
    windows: dict[int, tuple[int, int, str]] = {}  # half second -> (lowest, highest VmRSS KB, stack at the highest)
    inside: dict[str, int] = {}  # innermost bncbench function -> highest VmRSS seen in it (KB)
    stop = threading.Event()
    t0 = time.perf_counter()

    def sample() -> None:
        last = 0
        while not stop.is_set():
            rss, hwm = _status()
            frame = sys._current_frames().get(main)
            stack = _stack(frame)
            here = stack[-1].rsplit(":", 1)[0] if stack else "(outside bncbench)"
            inside[here] = max(inside.get(here, 0), rss)
            w = int((time.perf_counter() - t0) * 2)
            lo, hi, at = windows.get(w, (rss, 0, ""))
            windows[w] = (min(lo, rss), max(hi, rss), " > ".join(stack[-3:]) if rss > hi else at)
            if hwm >= last + KB:  # a rise of 1 MB or more
                rises.append((time.perf_counter() - t0, hwm, stack))
                last = hwm
            time.sleep(0.001)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        sys.argv = ["bncbench", *command(config, Path(tmp) / "results")]
        try:
            runpy.run_module("bncbench", run_name="__main__", alter_sys=True)
        except SystemExit as e:
            if e.code not in (0, None):
                raise
    stop.set()
    thread.join()
    _, hwm = _status()
    print(f"{Path(config).name}: peak RSS {hwm} KB ({hwm / KB:.0f} MB); load average {os.getloadavg()[0]:.2f}\n")
    print("highest VmRSS sampled inside each bncbench function (innermost on the main thread's stack), MB:")
    for name, kb in sorted(inside.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {kb / KB:8.0f}  {name}")
    print("\nVmRSS over time (half-second windows: lowest, highest MB, stack at the highest):")
    for w, (lo, hi, at) in sorted(windows.items()):
        print(f"  {w / 2:7.1f} s {lo / KB:6.0f} {hi / KB:6.0f}  {at}")
    print("\nthe peak's rises of 8 MB or more (seconds, VmHWM MB, stack sampled just after):")
    shown = 0
    for t, kb, stack in rises:
        if kb >= shown + 8 * KB or (t, kb, stack) == rises[-1]:
            print(f"  {t:7.2f} s {kb / KB:7.0f}  {' > '.join(stack[-5:]) or '(outside bncbench)'}")
            shown = kb


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", metavar="TREE", action="append", default=[],
                    help="another bncbench checkout, run in turn with this one (repeatable)")
    ap.add_argument("--where", action="store_true", help="one run, sampled: where the peak is reached")
    ap.add_argument("--tree", metavar="TREE", help="with --where: the checkout whose code runs [default: this one]")
    a = ap.parse_args()
    if a.where:
        tree = Path(a.tree).resolve() if a.tree else ROOT
        if os.environ.get("BENCH_MEMORY_CHILD") != "1":  # sample a process of its own, with the tree's code first
            env = {**os.environ, "PYTHONPATH": str(tree), "BENCH_MEMORY_CHILD": "1"}
            sys.exit(subprocess.run([sys.executable, __file__, str(Path(a.config).resolve()), "--where"], env=env,
                                    cwd=tempfile.gettempdir(), check=False).returncode)
        where(a.config)
        return
    trees = {"this tree": ROOT, **{t: Path(t).resolve() for t in a.against}}
    peaks: dict[str, list[int]] = {side: [] for side in trees}
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        for i in range(a.repeat):
            for j, (side, tree) in enumerate(trees.items()):
                peaks[side].append(peak_kb(a.config, Path(tmp) / f"{j}-{i}", tree))
    print(f"{Path(a.config).name}: bncbench run --jobs 1 --fresh, peak RSS (KB), {a.repeat} runs alternating; "
          f"load average at the end {os.getloadavg()[0]:.2f}\n")
    print("| code | median peak RSS (KB) | MB | runs (KB) |")
    print("|---|---|---|---|")
    for side, kbs in peaks.items():
        med = statistics.median(kbs)
        print(f"| {side} | {med:.0f} | {med / KB:.0f} | {' '.join(str(k) for k in kbs)} |")


if __name__ == "__main__":
    main()
