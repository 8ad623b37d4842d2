"""The import path `bncbench.classifiers.tables` of plug-ins written before the family layout
(docs/adding-a-classifier.md imported from it). The code is in `kernels/tables.py`; new code imports
from `bncbench.classifiers` or the kernel. Nothing inside bncbench imports this module
(tests/test_layout.py)."""

from bncbench.classifiers.kernels.tables import nb_tables, pair_table

__all__ = ['nb_tables', 'pair_table']
