"""Fitted models that leave bncbench: a classifier fitted on every row of a data set with its
preprocessing (`fitting.py`), saved in the model file format (`modelfile.py`, docs/models.md),
applied to new rows (`rows.py`), and written as one Bayesian network in BIF (`bif.py`)."""
