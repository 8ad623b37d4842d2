"""A fitted classifier that is one Bayesian network, written in BIF (the interchange format of Cozman's
JavaBayes, read by pgmpy and pyAgrum), with the probabilities it predicts with (docs/models.md: BIF)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bncbench.models.fitting import Model
from bncbench.utils.files import atomic_write
from bncbench.utils.names import escaped

#: why an ensemble has no single network, by classifier class (docs/models.md: BIF)
_SPODES = "it averages one SPODE network per superparent attribute; an average of networks is not one network"
NO_NETWORK = {
    "AODE": _SPODES, "TAODE": _SPODES, "IWAODE": _SPODES + " (weighted)", "SP": _SPODES,
    "PAA": _SPODES, "CAA": _SPODES, "PAE": _SPODES, "CAE": _SPODES,
    "RC": _SPODES + ", and drops children per test row", "SPRC": _SPODES + ", and drops children per test row",
    "SR": _SPODES + ", and drops attributes per test row", "NSR": _SPODES + ", and drops attributes per test row",
    "CFWNB": "its attribute weights raise each table to a power, so its posterior is not that of a network "
             "with its tables",
}
#: the characters a state name keeps (others: %XX per UTF-8 byte)
_STATE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+([]")
#: the characters a variable name keeps (others: `_`)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
#: the class variable's name
CLASS = "class"
#: how far a table's probabilities over a child's values may sum from 1
_TOLERANCE = 1e-9


def variable_names(names: list[str]) -> list[str]:
    """Variable names BIF readers accept, one per name: letters, digits and `_ - .` kept, any other
    character written `_` ("" as `_`); a name that then equals an earlier one gets `_2`, `_3`, ...
    (the first free), and so does one equal to `class` (the class variable's name)."""
    out: list[str] = []
    taken = {CLASS}
    for name in names:
        base = "".join(c if c in _NAME_CHARS else "_" for c in name) or "_"
        form, k = base, 1
        while form in taken or form.lower() in {t.lower() for t in taken}:  # pgmpy folds case
            k += 1
            form = f"{base}_{k}"
        taken.add(form)
        out.append(form)
    return out


def state_name(name: str) -> str:
    """A state name BIF readers accept: letters, digits and `_ - . + ( [ ]` kept, every other character
    (`%` too) written as `%XX` per UTF-8 byte; `%` alone for ""."""
    return "".join(c if c in _STATE_CHARS else escaped(c) for c in name) or "%"


@dataclass
class Network:
    """The network to write: its name, the class variable's name and states and P(y); per node its
    name, states, parents (variable names, the class first where it is one) and probabilities
    (child value first, then each parent's state in the parents' order)."""

    name: str
    class_name: str
    classes: list[str]
    prior: np.ndarray
    nodes: list[tuple[str, list[str], list[str], np.ndarray]]


def network(model: Model) -> Network | str:
    """The model's classifier as one network, or (one line) why it is not one."""
    clf = model.classifier
    kind = type(clf).__name__
    if kind in NO_NETWORK:
        return NO_NETWORK[kind]
    if kind == "AIT" and getattr(clf, "cip", False):
        return "with cip its prediction averages networks learned per test row (and the global one)"
    if not hasattr(clf, "network_tables"):
        return f"{kind} reports no network"
    net = clf.network_tables()
    pre = model.preprocessing
    names = variable_names(pre.names)
    cards = [int(k) for k in pre.cardinalities]
    states = [[state_name(s) for s in st] for st in pre.states]
    nodes: dict[int, tuple[str, list[str], list[str], np.ndarray]] = {}
    for i, par, log_t in zip(net.attributes, net.parents, net.log_tables):
        t = np.exp(log_t[(slice(0, cards[i]), *(slice(0, cards[p]) for p in par))])  # the codes, not the slot K
        p = np.moveaxis(t, -1, 1)  # [x_i, y, parents...]
        sums = p.sum(axis=0)
        if not np.allclose(sums, 1.0, rtol=0, atol=_TOLERANCE):
            return (f"its table of {pre.names[i]!r} does not sum to 1 over the values (estimator "
                    f"{clf.get_params().get('estimator')!r}: a quotient of two joint estimates)")
        nodes[i] = (names[i], states[i], [CLASS, *(names[q] for q in par)], p)
    for q in sorted({q for par in net.parents for q in par} - set(net.attributes)):
        # a parent without a factor of its own (STAN): observed only, a table that does not involve the class
        nodes[q] = (names[q], states[q], [], np.full(cards[q], 1.0 / cards[q]))
    title = "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "_" for c in f"{model.dataset}-{model.label}")
    return Network(title, CLASS,
                   [state_name(c) for c in pre.classes], np.exp(net.log_prior), [nodes[i] for i in sorted(nodes)])


def _numbers(p: np.ndarray) -> str:
    return ", ".join(repr(float(x)) for x in p)


def text(net: Network) -> str:
    """The BIF text of `net` (probabilities as Python's shortest round-tripping decimals)."""
    out = [f"network {net.name} {{\n}}\n"]
    for name, states in [(net.class_name, net.classes), *((n[0], n[1]) for n in net.nodes)]:
        out.append(f"variable {name} {{\n  type discrete [ {len(states)} ] {{ {', '.join(states)} }};\n}}\n")
    out.append(f"probability ( {net.class_name} ) {{\n  table {_numbers(net.prior)};\n}}\n")
    for name, _, parents, p in net.nodes:
        if not parents:
            out.append(f"probability ( {name} ) {{\n  table {_numbers(p)};\n}}\n")
            continue
        parent_states = [net.classes if q == net.class_name else next(n[1] for n in net.nodes if n[0] == q)
                         for q in parents]
        rows = [f"  ( {', '.join(s[j] for s, j in zip(parent_states, cfg))} ) {_numbers(p[(slice(None), *cfg)])};"
                for cfg in np.ndindex(*p.shape[1:])]
        out.append(f"probability ( {name} | {', '.join(parents)} ) {{\n" + "\n".join(rows) + "\n}\n")
    return "".join(out)


def write(net: Network, path: str | Path) -> None:
    """Write `net` as a BIF file, atomically."""
    with atomic_write(Path(path), "w", encoding="utf-8", public=True) as f:
        f.write(text(net))
