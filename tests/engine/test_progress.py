"""The run's ETA (bncbench/engine/progress.py): estimated from the work left, calibrated on the
units already finished, on synthetic unit costs where the largest data set comes last."""

import numpy as np
import pytest

from bncbench.engine.progress import Progress, RemainingTime, UnitSize

CLASSIFIERS, FOLDS = 6, 10
OVERHEAD, PER_WORK = 0.02, 3e-8  # seconds per task, seconds per row × attribute × classifier


def _grid(seed: int) -> list[tuple[UnitSize, float]]:
    """A paper-like grid: 30 data sets from 50 to 100,000 rows in ascending order (the largest
    last), 5–60 attributes each, 10 folds of 6 classifiers; a unit costs OVERHEAD per task plus
    PER_WORK per row × attribute × classifier, times a random factor (±20 %)."""
    rng = np.random.default_rng(seed)
    rows = np.geomspace(50, 100_000, 30).round()
    attrs = rng.integers(5, 61, size=rows.size)
    units = []
    for i, (n, a) in enumerate(zip(rows, attrs)):
        for _ in range(FOLDS):
            work = float(n * a * CLASSIFIERS)
            cost = (OVERHEAD * CLASSIFIERS + PER_WORK * work) * float(rng.uniform(0.8, 1.2))
            units.append((UnitSize(f"d{i}", CLASSIFIERS, work), cost))
    return units


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _simulate(units, jobs: int):
    """Run the units on `jobs` workers (each takes the next unit when free), advancing a Progress
    at every completion: [(tasks done, time, ETA, true time left, the task-count ETA)]."""
    clock = _Clock()
    total = sum(u.tasks for u, _ in units)
    prog = Progress(total, 0, [u for u, _ in units], quiet=True, clock=clock)
    free = [0.0] * jobs
    finish = []
    for u, cost in units:  # when each unit finishes, in the order the workers take them
        w = int(np.argmin(free))
        free[w] += cost
        finish.append((free[w], u, cost))
    end = max(t for t, _, _ in finish)
    out, done = [], 0
    for t, u, cost in sorted(finish, key=lambda x: x[0]):
        clock.now = t
        prog.advance(u.tasks, u.dataset, work=u.work, seconds=cost)
        done += u.tasks
        by_tasks = t / done * (total - done)
        out.append((done, t, prog.eta_seconds(), end - t, by_tasks))
    return total, out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("jobs", [1, 2])
def test_eta_at_half_done_is_within_a_quarter_of_the_time_left(seed, jobs):
    total, points = _simulate(_grid(seed), jobs)
    end = points[-1][1]
    _, _, eta, truth, by_tasks = next(p for p in points if p[0] >= total / 2)
    assert abs(eta - truth) <= 0.25 * truth, (eta, truth)
    # the grid is one where counting tasks fails: that estimate is a fraction of the truth
    assert by_tasks < 0.5 * truth
    # at half the time, too
    _, _, eta, truth, _ = next(p for p in points if p[1] >= end / 2)
    assert abs(eta - truth) <= 0.25 * truth, (eta, truth)


def test_cost_model_recovers_the_per_task_and_per_work_costs():
    # noise-free units of two sizes: the fit is exact
    est = RemainingTime(tasks_left=40, work_left=4e6)
    for tasks, work in [(4, 1e4), (4, 1e6), (4, 1e4), (4, 1e6)]:
        est.finished(tasks, work, 0.5 * tasks + 2e-6 * work)
    fit = est.coefficients()
    assert fit is not None
    a, b = fit
    assert a == pytest.approx(0.5, rel=1e-9) and b == pytest.approx(2e-6, rel=1e-9)
    # what is left (24 tasks, 4e6 − 2.02e6 work) costs, in the model's seconds, 12 + 3.96 = 15.96;
    # done cost 8 + 4.04 = 12.04 took 24.08 s of wall time (half speed): ETA = 24.08 · 15.96 / 12.04
    assert est.estimate(24.08) == pytest.approx(24.08 * 15.96 / 12.04, rel=1e-9)


def test_units_of_one_size_extrapolate_by_work_not_by_tasks():
    est = RemainingTime(tasks_left=20, work_left=10 * 100 + 10 * 10_000)
    for _ in range(10):
        est.finished(1, 100, 1.0)  # the small data set: 10 s for 10 units
    # the 10 units left are 100 times bigger: 1000 s, not the 10 s a task count gives
    assert est.estimate(10.0) == pytest.approx(1000.0)


def test_no_estimate_before_a_unit_is_measured_or_when_nothing_is_left():
    est = RemainingTime(tasks_left=2, work_left=2.0)
    assert est.estimate(5.0) is None
    est.finished(1, 1.0, None)  # not measured: counted, not fitted
    assert est.estimate(5.0) is None
    est.finished(1, 1.0, 2.0)
    assert est.estimate(5.0) is None  # nothing left


def test_progress_lines_show_the_work_based_eta():
    clock = _Clock()
    lines: list[str] = []
    units = [UnitSize("small", 2, 2 * 100), UnitSize("big", 2, 2 * 10_000)]
    with Progress(4, 0, units, log=lines.append, clock=clock) as prog:
        prog.fancy = False
        clock.now = 3.0
        prog.advance(2, "small", work=200, seconds=3.0)
        clock.now = 303.0
        prog.advance(2, "big", work=20_000, seconds=300.0)
    # after the small one, 3 s for 200 units of work: 20,000 more take 300 s = 5:00
    assert lines == ["[2/4] small done (0:03 elapsed, ETA 5:00)", "[4/4] big done (5:03 elapsed)"]
