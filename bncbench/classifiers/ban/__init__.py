"""Bayesian network augmented naive Bayes of paper 002: unrestricted BAN and k-BAN (docs/algorithms.md §4.6, §4.7)."""
