"""Averaged one-dependence estimators and paper 003's AODE family (docs/algorithms.md §4.4, §4.8)."""
