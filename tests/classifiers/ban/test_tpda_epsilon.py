"""Whole-pipeline oracle for BAN(method="tpda", ban_test="epsilon") (the earlier reading of docs/algorithms.md §4.7) against
the plain-Python reference tests/oracles/tpda_epsilon.py (exact CMI arithmetic for ties and I ≤ ε), plus
direct checks of the counting kernel `EntropyTerms`.

* test_tpda_matches_reference — seeded random data (tests/support/data.random_data, 5–9 attributes,
  missing values = one more value) and data drawn from random class-augmented networks, several
  ε and parent caps: `parents_`, the spec-mandated `info_` entries (edges proposed both ways,
  parent-cap cuts) and `predict_proba` (Laplace, to 1e-12) equal the reference's. A failure
  message names the phase and the pair where the code's run departs from the exact one.
* test_tpda_logic_with_exact_cmi — the module's structure steps (`tpda_skeleton`, `tpda_orient`)
  fed with the reference's CMI values (equal exact CMIs → equal floats, exact 0 → 0.0) equal the
  reference: separates the search logic from the numerics of the CMI.
* test_entropy_terms_* — T(S) = Σ N(s, y) ln N(s, y) and the CMI of `EntropyTerms` against
  Counter sums, with sets of all sizes, rows with unique configurations and a tiny prefix cache.
* test_entropy_terms_exact_ties_are_equal_floats — the premise of the spec's exact-float tie rule
  (§0.3): CMIs that are equal as numbers are equal floats, and an exact 0 is 0.0.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter

import numpy as np
import pytest

from bncbench.classifiers.ban import tpda_epsilon as tpda_module
from bncbench.classifiers.ban.ban import BAN, EntropyTerms
from tests.oracles.ban import ban as ref_ban
from tests.oracles import tpda_epsilon as ref
from tests.support.data import random_data

EPSILONS = (0.0, 0.005, 0.01, 0.05, 0.15)


# -- data ------------------------------------------------------------------------------------------

def network_data(seed: int, n_train: int, n_attr: int, n_classes: int = 2, n_test: int = 20,
                 p_missing: float = 0.0, duplicate: bool = False):
    """Rows drawn from a random class-augmented network: a random topological order (so arcs
    also point from higher to lower indices), each attribute with the class and 0–2 attribute
    parents and peaked CPTs (Dirichlet 0.4), so the graphs are not empty. `duplicate`: the last
    attribute is a copy of attribute 0 (exact CMI ties). Returns random_data's tuple."""
    rng = np.random.default_rng(seed)
    n = n_train + n_test
    cards = rng.integers(2, 4, size=n_attr)
    order = rng.permutation(n_attr)
    y = rng.integers(0, n_classes, size=n)
    X = np.zeros((n, n_attr), dtype=np.int64)
    for k, a in enumerate(order):
        m = min(k, int(rng.integers(0, 3)))
        par = [int(p) for p in rng.choice(order[:k], size=m, replace=False)] if m else []
        cfg = y.copy()
        n_cfg = n_classes
        for p in par:
            cfg = cfg * cards[p] + X[:, p]
            n_cfg *= int(cards[p])
        table = rng.dirichlet(np.full(int(cards[a]), 0.4), size=n_cfg)
        u = rng.random(n)
        X[:, a] = np.minimum((u[:, None] > np.cumsum(table[cfg], axis=1)).sum(axis=1), cards[a] - 1)
    if duplicate:
        X[:, -1] = X[:, 0]
        cards[-1] = cards[0]
    X[rng.random(X.shape) < p_missing] = -1
    return X[:n_train], y[:n_train], X[n_train:], cards, n_classes


def internal_rows(X, cards):
    """The classifier's internal codes: a missing value (−1) is the extra code K_i."""
    return [tuple(int(v) if v >= 0 else int(cards[i]) for i, v in enumerate(r)) for r in X]


# (name, data, ban_max_parents)
CASES = {
    "rand0-5": (lambda: random_data(0, n_train=80, n_attr=5), 8),
    "rand1-7": (lambda: random_data(1, n_train=80, n_attr=7), 8),
    "rand2-9": (lambda: random_data(2, n_train=80, n_attr=9), 8),
    "rand3-6-cap2": (lambda: random_data(3, n_train=120, n_attr=6, p_missing=0.15), 2),
    "rand4-8": (lambda: random_data(4, n_train=100, n_attr=8, n_classes=2), 8),
    "rand5-9": (lambda: random_data(5, n_train=80, n_attr=9), 8),
    # rand107: the strict "<" of the cut-set routine matters; rand125: its tie rule (smaller index)
    # matters; rand122: the code departs from the exact result at the default ε = 0.01
    "rand107-9": (lambda: random_data(107, n_train=100, n_attr=9), 8),
    "rand122-9": (lambda: random_data(122, n_train=100, n_attr=9), 8),
    "rand125-9": (lambda: random_data(125, n_train=100, n_attr=9), 8),
    "net11-6": (lambda: network_data(11, 400, 6), 8),
    "net12-8-miss": (lambda: network_data(12, 400, 8, n_classes=3, p_missing=0.03), 8),
    "net13-7-cap1": (lambda: network_data(13, 300, 7), 1),
    "net14-7-dup": (lambda: network_data(14, 300, 7, duplicate=True), 8),
}


@functools.cache
def case_data(name):
    make, max_parents = CASES[name]
    X, y, Xte, cards, n_classes = make()
    rows = internal_rows(X, cards)
    ys = [int(c) for c in y]
    has_missing = (X < 0).any(axis=0)
    card = [int(c) + int(m) for c, m in zip(cards, has_missing)]  # |X_i| of §1.5 (training data)
    return {"X": X, "y": y, "Xte": Xte, "cards": cards, "n_classes": n_classes, "rows": rows, "ys": ys,
            "card": card, "test_rows": internal_rows(Xte, cards), "oracle": ref.CMIOracle(rows, ys),
            "max_parents": max_parents}


@functools.cache
def reference_result(name, eps):
    d = case_data(name)
    trace = {}
    parents = ref.tpda_parents(len(d["cards"]), d["oracle"], eps, d["max_parents"], trace)
    return parents, trace


@functools.cache
def reference_posteriors(name, parents_key):
    d = case_data(name)
    parents = [list(p) for p in parents_key]
    jll = np.array(ref_ban.joint_log_likelihood(d["rows"], d["ys"], parents, d["card"], d["n_classes"],
                                                d["test_rows"]))
    p = np.exp(jll - jll.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


# -- diagnosis of a disagreement ---------------------------------------------------------------

@functools.total_ordering
class _Float:
    """A CMI compared as a plain float (what the code does)."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return self.value == other.value

    def __lt__(self, other):
        return self.value < other.value

    def le_eps(self, eps):
        return self.value <= eps


class _CodeCMI:
    """The reference's search driven by the code's CMI floats (`EntropyTerms.cmi`)."""

    def __init__(self, T):
        self.T = T

    def cmi(self, i, j, Z):
        return _Float(self.T.cmi(min(i, j), max(i, j), tuple(sorted(Z))))


def _diagnose(name, eps, code_parents):
    d = case_data(name)
    exact_parents, exact = reference_result(name, eps)
    lines = [f"case {name}, eps={eps}: code {code_parents} != reference {exact_parents}"]
    code_arcs = {(p, c) for c, par in enumerate(code_parents) for p in par}
    ref_arcs = {(p, c) for c, par in enumerate(exact_parents) for p in par}
    lines.append(f"arcs only in the code: {sorted(code_arcs - ref_arcs)}; only in the reference: "
                 f"{sorted(ref_arcs - code_arcs)}")
    try:
        T = EntropyTerms(np.array(d["rows"]), np.array(d["ys"]), np.asarray(d["cards"]) + 1, d["n_classes"])
        floats = {}
        float_parents = ref.tpda_parents(len(d["cards"]), _CodeCMI(T), eps, d["max_parents"], floats)
    except Exception as exc:  # noqa: BLE001 — the diagnosis must not hide the failure
        lines.append(f"(diagnosis unavailable: {exc!r})")
        return "\n".join(lines)
    lines.append(f"the reference's search run on the code's CMI floats gives the code's network: "
                 f"{float_parents == code_parents}")
    for key in ("draft", "R"):
        if exact[key] != floats[key]:
            lines.append(f"first divergence: drafting ({key}): exact {exact[key]} vs code floats {floats[key]}")
            return "\n".join(lines)
    for a, b in zip(exact["cutsets"], floats["cutsets"]):
        # thickening / thinning use only whether the pair is separated, orientation also the set
        if a[:2] != b[:2] or (a[2] if a[0] == "orientation" else a[2][0]) != (b[2] if b[0] == "orientation" else b[2][0]):
            phase, pair, res = a
            lines.append(f"first divergence: {phase}, cut-set routine for pair {pair}: exact arithmetic -> "
                         f"{res}; the code's floats -> {b[2]}" + ("" if b[1] == pair else f" (for pair {b[1]})"))
            return "\n".join(lines)
    for key in ("proposals", "collider_arcs", "meek", "free", "parent_cap_cuts"):
        if exact[key] != floats[key]:
            lines.append(f"first divergence: orientation ({key}): exact {exact[key]} vs code floats {floats[key]}")
            return "\n".join(lines)
    return "\n".join(lines)


# -- the whole pipeline ------------------------------------------------------------------------

@pytest.mark.parametrize("eps", EPSILONS)
@pytest.mark.parametrize("name", list(CASES))
def test_tpda_matches_reference(name, eps):
    d = case_data(name)
    expect, trace = reference_result(name, eps)
    b = BAN(method="tpda", ban_test="epsilon", cardinalities=d["cards"], n_classes=d["n_classes"], ban_epsilon=eps,
            ban_max_parents=d["max_parents"]).fit(d["X"], d["y"])
    assert b.card_.tolist() == d["card"]
    assert b.parents_ == expect, _diagnose(name, eps, b.parents_)
    assert b.info_["conflicting_edges"] == len(trace["conflicts"])
    assert b.info_["parent_cap_cuts"] == trace["parent_cap_cuts"]
    np.testing.assert_allclose(b.predict_proba(d["Xte"]), reference_posteriors(name, tuple(map(tuple, expect))),
                               rtol=1e-12, atol=1e-12)


def test_cases_exercise_every_phase():
    """The cases above are not trivial: together they add thickening edges, remove edges in
    thinning, orient colliders, apply Meek's rules, leave free edges, meet edges proposed both
    ways and cut parents."""
    seen = Counter()
    for name in CASES:
        for eps in EPSILONS:
            parents, t = reference_result(name, eps)
            seen["arcs"] += sum(map(len, parents)) > 0
            for key in ("thickening", "thinning_removed", "collider_arcs", "meek", "free", "conflicts",
                        "parent_cap_cuts"):
                seen[key] += bool(t[key])
    assert all(seen[k] > 0 for k in ("arcs", "thickening", "thinning_removed", "collider_arcs", "meek", "free",
                                     "conflicts", "parent_cap_cuts")), seen


@pytest.mark.parametrize("name", list(CASES))
def test_tpda_logic_with_exact_cmi(name):
    """The module's search steps, given CMI floats that are consistent with exact arithmetic
    (the reference's: equal CMIs → the same float, exact 0 → 0.0), build the reference's network
    for every ε."""
    d = case_data(name)
    oracle = d["oracle"]

    def cmi(i, j, Z):
        return oracle.cmi(i, j, Z).value

    n = len(d["cards"])
    for eps in EPSILONS:
        expect, trace = reference_result(name, eps)
        adj, _ = tpda_module.tpda_skeleton(n, cmi, eps)
        assert sorted((u, v) for u in range(n) for v in adj[u] if u < v) == trace["skeleton"], eps
        parents, info = tpda_module.tpda_orient(adj, cmi, eps)
        if d["max_parents"] >= n:
            assert parents == expect, eps
        assert info["conflicting_edges"] == len(trace["conflicts"])
        assert info["meek_arcs"] == len(trace["meek"]) and info["free_edges"] == len(trace["free"])


# -- the counting kernel ---------------------------------------------------------------------------

def _T_counter(rows, ys, attrs):
    counts = Counter((tuple(r[a] for a in attrs), c) for r, c in zip(rows, ys))
    return math.fsum(n * math.log(n) for n in counts.values())


def _kernel_data(seed):
    """random_data rows (with missing values) plus an almost-unique column (configurations unique
    per row once it is in the set) and a copy of column 0."""
    X, y, _, cards, n_classes = random_data(seed, n_train=150, n_test=0, n_attr=6, p_missing=0.1)
    rng = np.random.default_rng(seed + 100)
    ident = rng.permutation(150) % 140  # 10 values shared by two rows, the rest unique
    X = np.column_stack([X, ident, X[:, 0]])
    cards = np.concatenate([cards, [140, cards[0]]])
    rows = internal_rows(X, cards)
    return rows, [int(c) for c in y], cards, n_classes


@pytest.mark.parametrize("seed,cache_elements", [(20, 1), (21, 200), (22, 1000), (23, None)])
def test_entropy_terms_equal_counter_sums(seed, cache_elements, monkeypatch):
    if cache_elements is not None:  # prefixes evicted all the time
        monkeypatch.setattr(EntropyTerms, "_ID_CACHE_ELEMENTS", cache_elements)
    rows, ys, cards, n_classes = _kernel_data(seed)
    n = len(cards)
    Xc, y, sizes = np.array(rows), np.array(ys), np.asarray(cards) + 1
    T = EntropyTerms(Xc, y, sizes, n_classes)
    rnd = random.Random(seed)
    sets = [()] + [tuple(range(n))] + [(n - 2,), (0, n - 1), (n - 2, 3)]
    sets += [tuple(rnd.sample(range(n), rnd.randint(0, n))) for _ in range(150)]
    for S in sets:
        expect = _T_counter(rows, ys, S)
        got = T(list(S))
        assert got == pytest.approx(expect, rel=1e-9, abs=1e-9), S
        if n - 2 in S and expect == 0.0:
            assert got == 0.0
    # the same values again (cache hits / evicted prefixes) and from a fresh instance in another order
    T2 = EntropyTerms(Xc, y, sizes, n_classes)
    for S in reversed(sets):
        assert T(S[::-1]) == T2(S) == T(tuple(sorted(S)))
    # the ID column makes every configuration unique but 10 pairs: T = Σ over those pairs only
    assert T((n - 2,)) == pytest.approx(_T_counter(rows, ys, (n - 2,)), rel=1e-12)


@pytest.mark.parametrize("seed", [30, 31])
def test_entropy_terms_cmi_equals_reference(seed, monkeypatch):
    monkeypatch.setattr(EntropyTerms, "_ID_CACHE_ELEMENTS", 300)
    rows, ys, cards, n_classes = _kernel_data(seed)
    n = len(cards)
    T = EntropyTerms(np.array(rows), np.array(ys), np.asarray(cards) + 1, n_classes)
    oracle = ref.CMIOracle(rows, ys)
    rnd = random.Random(seed)
    for _ in range(120):
        i, j = sorted(rnd.sample(range(n), 2))
        Z = tuple(sorted(rnd.sample([a for a in range(n) if a not in (i, j)], rnd.randint(0, n - 2))))
        expect = ref_ban.cmi_nats(rows, ys, i, j, Z)
        assert oracle.cmi(i, j, Z).value == pytest.approx(expect, rel=1e-12, abs=1e-14)
        assert T.cmi(i, j, Z) == pytest.approx(expect, rel=1e-9, abs=1e-12), (i, j, Z)
        # the terms the CI test computed (and cached) are the T of those sets
        for S in ((i, j) + Z, (i,) + Z, (j,) + Z, Z):
            assert T(S[::-1]) == pytest.approx(_T_counter(rows, ys, S), rel=1e-9, abs=1e-9), S


@pytest.mark.parametrize("seed", [40, 41])
def test_entropy_terms_exact_ties_are_equal_floats(seed):
    """§0.3 breaks ties by exact float equality "because all scores are computed deterministically
    from integer counts"; the cut-set routine's strict "<" and the test I ≤ ε with ε = 0 rely on
    it. So CMIs that are equal numbers (the reference decides this exactly) must be equal floats,
    and an exactly independent pair must give 0.0 (not ±1e-17). Removing one attribute from a
    large conditioning set often leaves the CMI exactly unchanged at these sample sizes."""
    X, y, _, cards, n_classes = random_data(seed, n_train=80, n_test=0, n_attr=8)
    rows, ys = internal_rows(X, cards), [int(c) for c in y]
    T = EntropyTerms(np.array(rows), np.array(ys), np.asarray(cards) + 1, n_classes)
    oracle = ref.CMIOracle(rows, ys)
    rnd = random.Random(seed)
    bad_ties, bad_zeros, ties = [], [], 0
    for _ in range(150):
        i, j = sorted(rnd.sample(range(8), 2))
        Z = tuple(sorted(rnd.sample([a for a in range(8) if a not in (i, j)], rnd.randint(1, 6))))
        exact, got = oracle.cmi(i, j, Z), T.cmi(i, j, Z)
        if not exact.form and got != 0.0:
            bad_zeros.append((i, j, Z, got))
        for z in Z:
            Z2 = tuple(a for a in Z if a != z)
            if oracle.cmi(i, j, Z2) == exact:
                ties += 1
                if T.cmi(i, j, Z2) != got:
                    bad_ties.append((i, j, Z, z, got, T.cmi(i, j, Z2)))
    assert ties > 20
    assert not bad_zeros and not bad_ties, (
        f"{len(bad_zeros)} exact zeros computed as nonzero, e.g. {bad_zeros[:3]}; {len(bad_ties)} of {ties} exact "
        f"ties I(i;j|Z,Y) = I(i;j|Z−z,Y) computed as different floats, e.g. {bad_ties[:3]}")
