"""From a loaded data set to integer codes: discretisation, missing values, encoding, folds.

scikit-learn transformers (preprocess/transformers.py), importable from here:
`EqualFrequencyDiscretizer`, `MDLDiscretizer`, `MissingImputer`. Each is a subclass of the
numpy-only core (preprocess/core.py) that the benchmark runner encodes with
(preprocess/encode.py), adding only the scikit-learn interface, so both share one
implementation. They are loaded on first use, so that importing a submodule (config.py
imports `encode.PreprocessSettings`; the runner imports `encode`) does not import
scikit-learn.
"""

__all__ = ["EqualFrequencyDiscretizer", "MDLDiscretizer", "MissingImputer"]


def __getattr__(name: str):
    if name in __all__:
        from bncbench.preprocess import transformers

        return getattr(transformers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
