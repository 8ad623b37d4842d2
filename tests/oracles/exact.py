"""Exact arithmetic on integer combinations of logarithms of integers, for the oracles whose
decisions (ties, thresholds) must not depend on float summation order (`mdl.py`,
`hill_climbing.py`). Plain Python; no bncbench code.

Logarithms of distinct primes are linearly independent over the rationals, so a number
`Σ_k c_k·ln k` (integers c_k, k) written over primes, `Σ_p e_p·ln p`, has one canonical form: two
such numbers are equal iff their forms are, and a number is 0 iff its form is empty. A non-zero
form's sign comes from its float value (`math.fsum`) when that is clearly away from 0, else from a
60-digit `decimal` evaluation.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from decimal import Decimal, getcontext


@functools.cache
def factor(k: int) -> tuple[tuple[int, int], ...]:
    """Prime factorisation of k ≥ 1 as ((p, e), ...)."""
    out, p = [], 2
    while p * p <= k:
        e = 0
        while k % p == 0:
            k //= p
            e += 1
        if e:
            out.append((p, e))
        p += 1
    if k > 1:
        out.append((k, 1))
    return tuple(out)


@functools.cache
def _ln_decimal(p: int) -> Decimal:
    getcontext().prec = 60
    return Decimal(p).ln()


class Form:
    """Σ_p e_p·ln p with integer e_p (a Counter prime → e_p without zero entries)."""

    __slots__ = ("c",)

    def __init__(self, c=None):
        self.c = Counter({p: e for p, e in (c or {}).items() if e})

    @staticmethod
    def ln(k: int, times: int = 1) -> Form:
        """times·ln k for an integer k ≥ 1."""
        return Form({p: e * times for p, e in factor(k)})

    @staticmethod
    def xlnx(counts) -> Form:
        """Σ n·ln n over the positive integers n of `counts`."""
        out: Counter = Counter()
        for n, m in Counter(counts).items():
            if n > 1:
                for p, e in factor(n):
                    out[p] += e * n * m
        return Form(out)

    def __add__(self, other: Form) -> Form:
        out = Counter(self.c)
        for p, e in other.c.items():
            out[p] += e
        return Form(out)

    def __sub__(self, other: Form) -> Form:
        return self + other * -1

    def __mul__(self, k: int) -> Form:
        return Form({p: e * k for p, e in self.c.items()})

    def __eq__(self, other) -> bool:
        return self.c == other.c

    # unhashable like any class with a value __eq__; typeshed types __hash__ as a method, hence the ignore
    __hash__ = None  # type: ignore[assignment]

    def value(self) -> float:
        return math.fsum(e * math.log(p) for p, e in self.c.items())

    def sign(self) -> int:
        if not self.c:
            return 0
        terms = [e * math.log(p) for p, e in self.c.items()]
        v, scale = math.fsum(terms), math.fsum(abs(t) for t in terms)
        if abs(v) > 1e-9 * scale:
            return 1 if v > 0 else -1
        getcontext().prec = 60
        d = sum((Decimal(e) * _ln_decimal(p) for p, e in self.c.items()), Decimal(0))
        if abs(d) < Decimal(10) ** -45 * Decimal(scale):
            raise AssertionError(f"form {dict(self.c)} too close to 0 to decide")
        return 1 if d > 0 else -1

    def __lt__(self, other: Form) -> bool:
        return (self - other).sign() < 0
