"""Executors, chosen by name: where the (data set, run, fold) units of an experiment run (docs/architecture.md)."""

from __future__ import annotations

import itertools
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from bncbench.errors import UserError
from bncbench.experiment import EXECUTORS

NEEDS_DASK = "--executor dask needs dask[distributed]: pip install 'dask[distributed]'"
# one thread each for the numeric libraries of a worker process (the workers are the parallelism)
_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                "VECLIB_MAXIMUM_THREADS", "NUMBA_NUM_THREADS", "NUMEXPR_NUM_THREADS")


# glibc's mallopt parameters (malloc.h) and the largest values its dynamic thresholds reach on
# 64-bit systems (DEFAULT_MMAP_THRESHOLD_MAX = 32 MiB; the trim threshold follows as twice that)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MMAP_THRESHOLD, _TRIM_THRESHOLD = 32 << 20, 64 << 20
_FIXING_VARS = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")
_FIXING_TUNABLES = ("malloc.trim_threshold", "malloc.top_pad", "malloc.mmap_max")
_malloc_checked = False


def restore_malloc_thresholds() -> bool:
    """Give this process glibc's usual large-allocation behaviour back; True if set (docs/architecture.md)."""
    global _malloc_checked
    if _malloc_checked:
        return False
    _malloc_checked = True
    env = os.environ
    tunables = env.get("GLIBC_TUNABLES", "")
    fixed = any(v in env for v in _FIXING_VARS) or any(t in tunables for t in _FIXING_TUNABLES)
    if not fixed or "MALLOC_MMAP_THRESHOLD_" in env or "malloc.mmap_threshold" in tunables:
        return False
    if not sys.platform.startswith("linux"):
        return False
    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return False
        import ctypes

        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (ValueError, OSError, AttributeError):  # not glibc (the name is unknown), or no libc.so.6
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    ok_mmap = mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)
    ok_trim = mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD)
    return bool(ok_mmap and ok_trim)


@contextmanager
def hangup_blocked() -> Iterator[None]:
    """SIGHUP blocked in this thread while the block runs: the helper processes it starts inherit
    that (docs/architecture.md)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _indexed(fn: Callable, i: int, item: Any, args: tuple) -> tuple[int, Any]:
    return i, fn(item, *args)


POOL_WORTH_SECONDS = 5.0  # default: the serial seconds of work left that pay for starting a pool


def pool_worth() -> float:
    """The serial seconds of work left above which `run_local` starts its pool of workers:
    BNCBENCH_POOL_WORTH if set (0: always), else POOL_WORTH_SECONDS (docs/cli.md: Results store)."""
    value = os.environ.get("BNCBENCH_POOL_WORTH", "")
    if not value:
        return POOL_WORTH_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:  # also NaN
        raise UserError(f"BNCBENCH_POOL_WORTH={value!r}: give a number of seconds (0 starts the workers at once)")
    return seconds


def run_local(fn: Callable, items: Sequence, args: tuple, jobs: int,
              in_process: Callable | None = None) -> Iterator[tuple[int, Any]]:
    """fn(item, *args) for every item: in this process (as `in_process`, default fn) while the work
    left, measured on the items done (their mean seconds times the items left), is below
    `pool_worth()`; the rest in a joblib/loky pool of `jobs` worker processes (docs/cli.md: Results store)."""
    here = in_process or fn
    worth = pool_worth() if jobs > 1 else float("inf")
    start = time.monotonic()
    n = 0
    while n < len(items):
        left = len(items) - n
        if left > 1 and (worth == 0 or (n and (time.monotonic() - start) / n * left > worth)):
            break
        yield n, here(items[n], *args)
        n += 1
    if n == len(items):
        return
    yield from _pool(fn, items, args, jobs, range(n, len(items)))


def in_processes(fn: Callable, items: Sequence, args: tuple, jobs: int) -> None:
    """fn(item, *args) for every item in a pool of min(jobs, len(items)) worker processes, each item's
    exception raised here (`_pool`: no process outlives the call)."""
    for _ in _pool(fn, items, args, min(jobs, len(items)), range(len(items))):
        pass


def _pool(fn: Callable, items: Sequence, args: tuple, jobs: int, todo: range) -> Iterator[tuple[int, Any]]:
    """fn(items[i], *args) for every i of `todo` in a loky pool of `jobs` worker processes, at most
    two units per worker queued; the pool is shut down before this returns, its workers killed when
    the caller stops early (Ctrl-C, SIGTERM, an error): none outlives the run (docs/architecture.md)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from joblib.externals.loky import ProcessPoolExecutor

    with hangup_blocked():
        pool = ProcessPoolExecutor(max_workers=jobs, env={v: "1" for v in _THREAD_VARS})
    completed = False
    running: set = set()
    try:
        queue = iter(todo)
        for i in itertools.islice(queue, 2 * jobs):
            running.add(pool.submit(_indexed, fn, i, items[i], args))
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                for i in itertools.islice(queue, 1):
                    running.add(pool.submit(_indexed, fn, i, items[i], args))
                yield future.result()
        completed = True
    finally:
        if completed:
            pool.shutdown(wait=True)
        else:
            _handed_on(running)
            with _manager_keyerror_quiet():
                pool.shutdown(wait=True, kill_workers=True)


def _handed_on(futures: set, timeout: float = 1.0) -> None:
    """Wait, at most `timeout` seconds, until loky's manager thread has moved every unit submitted
    to the workers' queue (where each of the 2 × jobs fits): its shutdown that kills the workers
    stops with a KeyError in that thread, printed on stderr, on a unit submitted just before."""
    deadline = time.monotonic() + timeout
    while any(not (f.running() or f.done()) for f in futures) and time.monotonic() < deadline:
        time.sleep(0.001)


@contextmanager
def _manager_keyerror_quiet() -> Iterator[None]:
    """While the pool is killed: the KeyError of loky's manager thread on a unit submitted just
    before (what `_handed_on` waits out, which a loaded machine can outlast) is not printed; any
    other exception of any thread is, as Python prints it."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not (args.exc_type is KeyError and args.thread is not None and args.thread.name == "ExecutorManagerThread"):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def local_cluster(jobs: int):
    """A Dask LocalCluster of `jobs` single-threaded worker processes (docs/architecture.md)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.nanny.pre-spawn-environ": {v: 1 for v in _THREAD_VARS}}), hangup_blocked():
        return LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                            dashboard_address=None, silence_logs=logging.CRITICAL)


def close_cluster(cluster) -> None:
    """Close a LocalCluster within a second or two, also when its workers are computing: each
    worker process is given a second to stop, then killed (LocalCluster.close waits up to 4 s
    for each), before the client lets go of the unfinished units (it releases them one by one, the
    scheduler logging each)."""
    import asyncio

    async def stop_workers() -> None:
        await asyncio.gather(*(worker.close(timeout=1) for worker in list(cluster.workers.values())))

    cluster.sync(stop_workers)
    cluster.close()


def run_dask(fn: Callable, items: Sequence, args: tuple, jobs: int, scheduler: str | None) -> Iterator[tuple[int, Any]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UserError(NEEDS_DASK) from None
    cluster = client = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout=30)
            except (OSError, TimeoutError, ValueError) as e:  # ValueError: an address distributed refuses
                raise UserError(f"--scheduler {scheduler}: cannot connect ({e})") from None
        else:
            cluster = local_cluster(jobs)
            client = Client(cluster)
        futures = [client.submit(_indexed, fn, i, item, args, pure=False) for i, item in enumerate(items)]
        done = as_completed(futures)
        del futures  # as_completed holds each future until it is yielded
        for fut in done:
            result = fut.result()
            fut.release()  # the worker drops its copy now, not when the whole run ends
            del fut
            yield result
    finally:
        if cluster is not None:
            close_cluster(cluster)
        if client is not None:
            client.close()


def check_scheduler(address: str) -> None:
    """UserError for a Dask scheduler address that cannot name a scheduler: not [tcp://]HOST:PORT
    as distributed reads it (a missing port, an IPv6 address without brackets, an unknown
    scheme), a port out of range, or a host name that does not resolve."""
    try:
        from distributed.comm import get_address_host_port
    except ImportError:
        raise UserError(NEEDS_DASK) from None
    try:
        host, port = get_address_host_port(address)
    except ValueError as e:
        raise UserError(f"--scheduler {address}: {e}; give tcp://HOST:PORT") from None
    if not host or not 0 < port < 65536:
        raise UserError(f"--scheduler {address}: give tcp://HOST:PORT with a host and a port from 1 to 65535")
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise UserError(f"--scheduler {address}: the host {host!r} is not found ({getattr(e, 'strerror', None) or e})"
                        ) from None


def check_executor(name: str, scheduler: str | None) -> None:
    """UserError for an unknown executor, a scheduler given to the local one or malformed
    (`check_scheduler`), or a bad BNCBENCH_POOL_WORTH."""
    if name not in EXECUTORS:
        raise UserError(f"unknown executor {name!r}; choose one of {', '.join(EXECUTORS)}")
    if scheduler and name != "dask":
        raise UserError("--scheduler is only for --executor dask")
    if scheduler:
        check_scheduler(scheduler)
    pool_worth()


def execute(name: str, fn: Callable, items: Sequence, args: tuple, jobs: int = 1,
            scheduler: str | None = None, in_process: Callable | None = None) -> Iterator[tuple[int, Any]]:
    """Run fn(item, *args) for every item on the named executor, yielding (index, result); the
    local one runs small work in this process, as `in_process` (`run_local`)."""
    check_executor(name, scheduler)
    if name == "local":
        return run_local(fn, items, args, jobs, in_process)
    return run_dask(fn, items, args, jobs, scheduler)
