"""Plain-Python reference of the Fayyad–Irani MDL discretiser, written from docs/algorithms.md §1.3
(both `mdl_method` variants). It never imports or copies bncbench code.

Exact reasoning. Every quantity the criterion compares is an integer combination of natural
logarithms of integers, once it is multiplied by suitable positive integers:

* for a count vector `c` over the classes with `n = Σ c`, `h(c) = n·ln n − Σ_y c_y·ln c_y`
  (= n·Ent(c)·ln 2, integer coefficients);
* the weighted entropy of a candidate split, `E(T; S)·N·ln 2 = h(S1) + h(S2)`;
* `Gain·N·ln 2 = h(S) − h(S1) − h(S2)`;
* rule 5, `Gain > (log2(N − 1) + Δ)/N` with `Δ = log2(3^k − 2) − [k·Ent(S) − k1·Ent(S1) −
  k2·Ent(S2)]`, multiplied by `N·ln 2 > 0` and then by `L = N·n1·n2 > 0` (n1, n2 the sizes of
  S1, S2), is `margin > 0` with the integer-coefficient form

      margin = L·[h(S) − h(S1) − h(S2)] − L·ln(N − 1) − L·ln(3^k − 2)
               + (L/N)·k·h(S) − (L/n1)·k1·h(S1) − (L/n2)·k2·h(S2).

Written over the logarithms of primes (linearly independent over the rationals) each such number
has one canonical form `Σ_p e_p·ln p` (`tests/oracles/exact.py`): two numbers are equal iff their
forms are, and a number is 0 iff its form is empty. So "Gain exactly at the
threshold" is rejected (the rule is strict), equal entropies are equal (the tie rules of rule 3
and petal's (1) decide), and no float noise enters a decision.

`margins(values, y, ...)` returns, for every test made, the chosen split, how many candidates
share its exactly minimal E (`tied`), whether it was accepted, and the gain, threshold and their
difference in bits (floats, for the tests' comments), so a test can show how far an input lies
from the threshold and that it has no exact tie.
"""

from __future__ import annotations

import math
import struct

from tests.oracles.exact import Form


def f32(x: float) -> float:
    """x rounded to a 32-bit float."""
    return struct.unpack("f", struct.pack("f", x))[0]


def h(counts) -> Form:
    """n·ln n − Σ c·ln c of a class-count vector (= n·Ent·ln 2)."""
    n = sum(counts)
    f = Form.ln(n, n) if n else Form()
    for c in counts:
        if c:
            f = f - Form.ln(c, c)
    return f


def _h_float(counts) -> float:
    """The float value of h(counts)."""
    n = sum(counts)
    return (n * math.log(n) if n else 0.0) - sum(c * math.log(c) for c in counts if c)


def _ent_bits(counts) -> float:
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c) if n else 0.0


def _cuts(v, y, n_classes, petal, top, log):
    """Cuts of the sorted values v (classes y) per §1.3; appends a record per test to `log`."""
    N = len(v)
    if N < 2:  # rule 1
        return []
    cands = [i for i in range(N - 1) if v[i] < v[i + 1]]  # rule 2: cut between i and i + 1
    if not cands:
        return []
    total = [0] * n_classes
    for c in y:
        total[c] += 1
    left = [0] * n_classes
    splits = []
    pos = 0
    for i in cands:
        while pos <= i:
            left[y[pos]] += 1
            pos += 1
        splits.append((i, list(left), [t - l for t, l in zip(total, left)]))
    # rule 3: the smallest E, i.e. the smallest h(S1) + h(S2); ties → the leftmost (weka) or the
    # rightmost (petal (1)) candidate, decided on the exact forms of the candidates whose float
    # value is within float noise of the smallest (the others are clearly larger)
    fl = [_h_float(l) + _h_float(r) for _, l, r in splits]
    low = min(fl)
    near = [b for b, x in enumerate(fl) if x <= low + 1e-9 * (1.0 + abs(low))]
    ents = {b: h(splits[b][1]) + h(splits[b][2]) for b in near}
    best, tied = near[0], 1
    for b in near[1:]:
        d = (ents[b] - ents[best]).sign()
        tied = 1 if d < 0 else tied + (d == 0)
        if d < 0 or (d == 0 and petal):
            best = b
    i, l, r = splits[best]
    gain = h(total) - ents[best]  # N·ln 2·Gain
    rec = {"N": N, "cut_after": i, "left": l, "right": r, "tied": tied}
    log.append(rec)
    if gain.sign() <= 0:  # rule 4
        rec["accepted"] = False
        return []
    k = n_classes if (petal and top) else sum(1 for t in total if t)  # petal (5) at the top level
    k1, k2 = sum(1 for t in l if t), sum(1 for t in r if t)
    n1, n2 = sum(l), sum(r)
    L = N * n1 * n2
    margin = (gain * L - Form.ln(N - 1, L) - Form.ln(3 ** k - 2, L)
              + h(total) * (L // N * k) - h(l) * (L // n1 * k1) - h(r) * (L // n2 * k2))
    accepted = margin.sign() > 0  # rule 5, strict
    g = _ent_bits(total) - (n1 * _ent_bits(l) + n2 * _ent_bits(r)) / N
    delta = math.log2(3 ** k - 2) - (k * _ent_bits(total) - k1 * _ent_bits(l) - k2 * _ent_bits(r))
    rec.update(accepted=accepted, k=k, gain=g, threshold=(math.log2(N - 1) + delta) / N,
               margin_bits=margin.value() / (L * math.log(2) * N))
    if not accepted:
        return []
    cut = f32(f32(v[i] + v[i + 1]) / 2) if petal else (v[i] + v[i + 1]) / 2  # rule 6 / petal (3)
    lv, ly, rv, ry = v[: i + 1], y[: i + 1], v[i + 1:], y[i + 1:]
    if petal:  # petal (2): a side is searched again only if it holds more than 2 instances
        lc = _cuts(lv, ly, n_classes, petal, False, log) if len(lv) > 2 else []
        rc = _cuts(rv, ry, n_classes, petal, False, log) if len(rv) > 2 else []
    else:
        lc = _cuts(lv, ly, n_classes, petal, False, log)
        rc = _cuts(rv, ry, n_classes, petal, False, log)
    return lc + [cut] + rc


def mdl_cuts(values, y, n_classes: int, method: str = "weka", log: list | None = None) -> list[float]:
    """Sorted cut points of the non-missing `values` with classes `y` (§1.3); `method` "weka" or
    "petal" (float32 values and cuts, rightmost tie, recursion on sides of > 2 instances, the
    top-level k = `n_classes`). `log`, if given, receives one dict per test made."""
    petal = method == "petal"
    vals = [f32(float(x)) if petal else float(x) for x in values]
    order = sorted(range(len(vals)), key=lambda r: vals[r])  # stable
    v = [vals[r] for r in order]
    yy = [int(y[r]) for r in order]
    return sorted(_cuts(v, yy, n_classes, petal, True, log if log is not None else []))


def margins(values, y, n_classes: int, method: str = "weka") -> list[dict]:
    """The tests that `mdl_cuts` makes, in order (the top-level test first)."""
    log: list = []
    mdl_cuts(values, y, n_classes, method, log)
    return log
