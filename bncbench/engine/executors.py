"""Executors, chosen by name: where the (data set, run, fold) units of an experiment run.

Every executor yields (unit index, result) pairs as units finish; only the driver writes the
results store, so resume and atomicity are the same whatever runs the work. Workers load data
from the cache or mirror themselves (a unit carries only the data set's name and recipe).

- ``local``: in this process (``jobs=1``) or a joblib/loky process pool of ``jobs`` workers,
  one BLAS/OpenMP thread each.
- ``dask``: a Dask distributed cluster: ``scheduler="tcp://HOST:PORT"`` for an existing one
  (its workers need bncbench installed and the same BNCBENCH_CACHE / BNCBENCH_MIRROR paths), or
  a LocalCluster of ``jobs`` single-threaded worker processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bncbench.errors import UserError

EXECUTORS = ("local", "dask")
_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _indexed(fn: Callable, i: int, item: Any, args: tuple) -> tuple[int, Any]:
    return i, fn(item, *args)


def run_local(fn: Callable, items: Sequence, args: tuple, jobs: int) -> Iterator[tuple[int, Any]]:
    if jobs <= 1 or len(items) <= 1:
        for i, item in enumerate(items):
            yield i, fn(item, *args)
        return
    from joblib import Parallel, delayed, parallel_config

    with parallel_config(backend="loky", inner_max_num_threads=1):
        parallel = Parallel(n_jobs=jobs, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs")
        yield from parallel(delayed(_indexed)(fn, i, item, args) for i, item in enumerate(items))


def local_cluster(jobs: int):
    """A Dask LocalCluster of `jobs` single-threaded worker processes.

    Worker processes get one BLAS/OpenMP thread and not Dask's default
    MALLOC_TRIM_THRESHOLD_=65536, which makes numpy's large temporaries page-fault on every
    allocation (measured here: twice the time per unit)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.nanny.pre-spawn-environ": {v: 1 for v in _THREAD_VARS}}):
        return LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                            dashboard_address=None, silence_logs=40)


def run_dask(fn: Callable, items: Sequence, args: tuple, jobs: int, scheduler: str | None) -> Iterator[tuple[int, Any]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UserError("--executor dask needs dask[distributed]: pip install 'dask[distributed]'") from None
    cluster = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout=30)
            except (OSError, TimeoutError) as e:
                raise UserError(f"--scheduler {scheduler}: cannot connect ({e})") from None
        else:
            cluster = local_cluster(jobs)
            client = Client(cluster)
        try:
            futures = [client.submit(_indexed, fn, i, item, args, pure=False) for i, item in enumerate(items)]
            for fut in as_completed(futures):
                yield fut.result()
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def check_executor(name: str, scheduler: str | None) -> None:
    """UserError for an unknown executor or a scheduler given to the local one."""
    if name not in EXECUTORS:
        raise UserError(f"unknown executor {name!r}; choose one of {', '.join(EXECUTORS)}")
    if scheduler and name != "dask":
        raise UserError("--scheduler is only for --executor dask")


def execute(name: str, fn: Callable, items: Sequence, args: tuple, jobs: int = 1,
            scheduler: str | None = None) -> Iterator[tuple[int, Any]]:
    """Run fn(item, *args) for every item on the named executor; yields (index, result)."""
    check_executor(name, scheduler)
    if name == "local":
        return run_local(fn, items, args, jobs)
    return run_dask(fn, items, args, jobs, scheduler)
