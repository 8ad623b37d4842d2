"""classifiers.docstrings: a built-in's docstrings read from its source equal its `__doc__`s (the
oracle: the imported class and module), without importing the classifier."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bncbench.classifiers import REGISTRY, docstrings


@pytest.mark.parametrize("name", list(REGISTRY))
def test_docstrings_equal_the_imported_ones(name):
    cls = REGISTRY[name]
    assert docstrings(name) == (cls.__doc__, sys.modules[cls.__module__].__doc__)


def test_docstrings_import_no_classifier():
    code = ("import sys\nfrom bncbench.classifiers import REGISTRY, docstrings\n"
            "docs = [docstrings(n) for n in REGISTRY]\n"
            "assert all(d[0] for d in docs), 'a class without a docstring'\n"
            "assert 'sklearn' not in sys.modules and 'bncbench.classifiers.base' not in sys.modules\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
