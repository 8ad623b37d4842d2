"""bncbench: reproducible benchmarks of Bayesian network classifiers on UCI data."""

__version__ = "0.3.0"
