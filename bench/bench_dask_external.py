"""Benchmark: a grid on an external Dask cluster started the ordinary way, against `--jobs 1`.

    python bench/bench_dask_external.py [CONFIG] [--repeat N] [--port PORT] [--workers W]

Per repetition: `bncbench run CONFIG --jobs 1`; then a scheduler (`dask scheduler --port PORT`)
and W plain workers (`dask worker tcp://127.0.0.1:PORT --nthreads 1`, default nanny, so Dask's
default worker environment with MALLOC_TRIM_THRESHOLD_=65536) as subprocesses, once all W
workers are connected `bncbench run CONFIG --executor dask --scheduler tcp://127.0.0.1:PORT`,
then the cluster is stopped. Wall times are of the whole `bncbench run` process (`--fresh
--quiet`); the cluster's start is not included. CPU seconds and minor page faults (of the run's
process, plus the workers' during the run) show what the wall time hides on a busy machine.
After every repetition, checks that `bncbench report --format csv` gives the same bytes for zol
and rmse on both stores (exit status 1 if not). Default CONFIG: bench/configs/grid10.yaml
(needs BNCBENCH_MIRROR or the download cache, in the workers' environment too).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path(__file__).with_name("configs") / "grid10.yaml"
METRICS = ("zol", "rmse")


def bnc(*args: str) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "bncbench", *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"bncbench {' '.join(args)} failed ({r.returncode}):\n{r.stderr}")
    return r


def timed_run(cfg: str, results: Path, *extra: str) -> tuple[float, float, int]:
    """Wall seconds, and CPU seconds (user + system) and minor page faults of the run's process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    bnc("run", cfg, "--results", str(results), "--fresh", "--quiet", *extra)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, after.ru_minflt - before.ru_minflt


def reports(results: Path) -> dict[str, str]:
    return {m: bnc("report", str(results), "--metric", m, "--format", "csv").stdout for m in METRICS}


class Cluster:
    """`dask scheduler` and `dask worker` subprocesses on 127.0.0.1 (no dashboards, to stay off
    ports other people use; nothing else differs from the defaults)."""

    def __init__(self, port: int, workers: int, log: Path):
        self.address = f"tcp://127.0.0.1:{port}"
        self.procs: list[subprocess.Popen] = []
        self.log = open(log, "a")
        dask = [sys.executable, "-m", "dask"]
        try:
            self._start(dask + ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"])
            self._wait(0)
            for _ in range(workers):
                self._start(dask + ["worker", self.address, "--nthreads", "1", "--no-dashboard"])
            self._wait(workers)
        except BaseException:
            self.stop()
            raise

    def _start(self, cmd: list[str]) -> None:
        self.procs.append(subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT))

    def _wait(self, n_workers: int, timeout: float = 60.0) -> None:
        from distributed import Client

        deadline = time.monotonic() + timeout
        while True:
            if any(p.poll() is not None for p in self.procs):
                raise SystemExit(f"a dask process exited early (log: {self.log.name})")
            try:
                with Client(self.address, timeout=5) as client:
                    if n_workers:
                        client.wait_for_workers(n_workers, timeout=max(1.0, deadline - time.monotonic()))
                    return
            except (OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise SystemExit(f"no Dask cluster with {n_workers} workers at {self.address} "
                                     f"after {timeout:.0f} s (log: {self.log.name})") from None
                time.sleep(0.5)

    def worker_usage(self) -> tuple[float, int]:
        """CPU seconds (user + system) and minor page faults of the worker processes so far."""
        from distributed import Client

        with Client(self.address, timeout=10) as client:
            usage = client.run(resource.getrusage, resource.RUSAGE_SELF).values()
        return sum(u.ru_utime + u.ru_stime for u in usage), sum(u.ru_minflt for u in usage)

    def stop(self) -> None:
        if self.log.closed:
            return
        for p in reversed(self.procs):  # workers first, then the scheduler
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs.clear()
        self.log.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--port", type=int, default=8786)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    local_t, dask_t, differ = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        tmp = Path(tmp)
        log = tmp / "dask.log"
        print(f"grid: {a.config}; {a.workers} workers at tcp://127.0.0.1:{a.port}; BNCBENCH_MIRROR="
              f"{os.environ.get('BNCBENCH_MIRROR', '(unset)')}\n")
        print("| repetition | --jobs 1: wall (s) | CPU (s) | minor faults | dask: wall (s) | CPU, workers + driver (s) "
              "| minor faults | speed-up (wall) | reports |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in range(a.repeat):
            wall, cpu, flt = timed_run(a.config, tmp / "local", "--jobs", "1")
            local_t.append(wall)
            cluster = Cluster(a.port, a.workers, log)
            try:
                w_cpu0, w_flt0 = cluster.worker_usage()
                d_wall, d_cpu, d_flt = timed_run(a.config, tmp / "dask", "--executor", "dask",
                                                 "--scheduler", cluster.address)
                w_cpu, w_flt = cluster.worker_usage()
            finally:
                cluster.stop()
            dask_t.append(d_wall)
            same = reports(tmp / "local") == reports(tmp / "dask")
            if not same:
                differ.append(r + 1)
            print(f"| {r + 1} | {wall:.2f} | {cpu:.1f} | {flt} | {d_wall:.2f} | {w_cpu - w_cpu0 + d_cpu:.1f} "
                  f"| {w_flt - w_flt0 + d_flt} | {wall / d_wall:.2f}× | {'identical' if same else 'DIFFER'} |",
                  flush=True)
        lo, da = statistics.median(local_t), statistics.median(dask_t)
        print(f"| median | {lo:.2f} | | | {da:.2f} | | | {lo / da:.2f}× | |")
        print(f"\nreports ({', '.join(METRICS)}, csv) byte-identical in every repetition: "
              f"{'yes' if not differ else 'NO, repetitions ' + ', '.join(map(str, differ))}")
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
