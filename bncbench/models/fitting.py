"""A classifier of a config fitted on every row of a data set, with its preprocessing, as a model
file's contents and back (docs/models.md)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bncbench import __version__
from bncbench.classifiers import REGISTRY
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.data.dataset import Dataset
from bncbench.engine.units import BayesNetEntry, load_dataset
from bncbench.errors import UserError
from bncbench.models import modelfile
from bncbench.preprocess.arff import value_names
from bncbench.preprocess.encode import Encoded, dataset_matrix, encode_rows, fit_cuts, fit_imputation, nominal_mask
from bncbench.preprocess.imputation import impute
from bncbench.preprocess.settings import PreprocessSettings

if TYPE_CHECKING:
    from bncbench.experiment import ClassifierSpec, DatasetSpec


@dataclass
class Preprocessing:
    """What turns a row of the data set's attributes into the classifier's codes (docs/algorithms.md §1):
    the settings, each attribute's name and declared values (None: numeric), the cut points of each
    numeric one, the imputed value of each (under `missing: impute`), whether a missing value has
    its own code (`missing: distinct` with missing values in the data), the codes per attribute
    (`cardinalities`), the class names and the name of each code (`states`: values, bins, the
    missing value's)."""

    settings: PreprocessSettings
    names: list[str]
    values: list[list[str] | None]
    cuts: list[np.ndarray | None]
    imputed: np.ndarray | None
    missing_code: list[bool]
    cardinalities: np.ndarray
    classes: list[str]
    states: list[list[str]]

    def to_header(self) -> dict[str, Any]:
        return {"settings": asdict(self.settings), "names": self.names, "values": self.values, "cuts": self.cuts,
                "imputed": self.imputed, "missing_code": self.missing_code, "cardinalities": self.cardinalities,
                "classes": self.classes, "states": self.states}

    @classmethod
    def from_header(cls, h: dict[str, Any]) -> Preprocessing:
        """The preprocessing of a model file's header (ValueError where its parts do not fit each
        other: every code it gives must be one the classifier has a slot for)."""
        pre = cls(PreprocessSettings(**h["settings"]), list(h["names"]), list(h["values"]), list(h["cuts"]),
                  h["imputed"], list(h["missing_code"]), h["cardinalities"], list(h["classes"]),
                  list(h["states"]))
        pre.check()
        return pre

    def check(self) -> None:
        """ValueError unless every attribute has a name, values or cut points, and exactly the
        codes they give (plus the missing value's), and the classes are names."""
        n = len(self.names)
        cards = np.asarray(self.cardinalities)
        if not (all(isinstance(x, str) for x in [*self.names, *self.classes]) and self.classes
                and cards.dtype.kind in "iu" and cards.shape == (n,)
                and len(self.values) == len(self.cuts) == len(self.missing_code) == len(self.states) == n):
            raise ValueError("its preprocessing's parts do not fit together")
        for i, (values, cut, code) in enumerate(zip(self.values, self.cuts, self.missing_code)):
            if values is not None:
                k = len(values) if isinstance(values, list) and all(isinstance(v, str) for v in values) else -1
            else:
                k = cut.size + 1 if isinstance(cut, np.ndarray) and cut.ndim == 1 else -1
            if k < 1 or (values is not None) == (cut is not None) or cards[i] != k + bool(code):
                raise ValueError(f"its preprocessing of attribute {i} does not give {cards[i]} codes")
        if self.imputed is not None:
            imputed = np.asarray(self.imputed)
            nominal = np.array([v is not None for v in self.values])
            if imputed.shape != (n,) or not np.all(np.isfinite(imputed)) or \
                    np.any(nominal & ((imputed < 0) | (imputed >= cards) | (imputed != np.round(imputed)))):
                raise ValueError("its imputed values are not one per attribute, a code for a nominal one")


@dataclass
class Model:
    """A fitted model: the data set and label it came from, its preprocessing and its classifier."""

    dataset: str
    label: str
    preprocessing: Preprocessing
    classifier: BayesNetClassifier


def encode_all(ds: Dataset, s: PreprocessSettings) -> tuple[np.ndarray, Preprocessing]:
    """Every row's codes and the preprocessing fitted on every row (as preprocess/encode.py's
    `encode_fold` with all rows for training)."""
    rows = np.arange(ds.n_instances)
    Xm = dataset_matrix(ds)
    imputed = None
    if s.missing == "impute":
        imputed = fit_imputation(ds, rows, Xm)
        Xm = impute(Xm, imputed, nominal_mask(ds))
    cuts = fit_cuts(ds, rows, s, Xm)
    X, cards = encode_rows(ds, s, cuts, X=Xm)
    enc = Encoded(X, X[:0], cards, cuts)
    missing_code = [s.missing == "distinct" and ds.has_missing(i) for i in range(ds.n_attributes)]
    states = value_names(ds, enc, s.missing)
    pre = Preprocessing(s, [a.name for a in ds.attributes], [a.values for a in ds.attributes], list(cuts),
                        imputed, missing_code, cards, list(ds.classes), [n[:int(k)] for n, k in zip(states, cards)])
    return X, pre


def builtin_class(spec: ClassifierSpec) -> type[BayesNetClassifier]:
    """The built-in classifier class of `spec` (UserError for a plug-in or a scikit-learn baseline)."""
    cls = spec.estimator_class
    if spec.name not in REGISTRY or REGISTRY[spec.name] is not cls:
        plugin = isinstance(cls, type) and issubclass(cls, BayesNetClassifier)
        kind = "a plug-in" if plugin else "a scikit-learn baseline"
        raise UserError(f"classifier {spec.label!r} is {kind} ({spec.name}); `bncbench fit` saves bncbench's "
                        f"built-in classifiers only")
    return cls


def fit(dataset: DatasetSpec, spec: ClassifierSpec, settings: PreprocessSettings) -> Model:
    """`spec` fitted on every row of `dataset` with the config's `settings` (the data set's own
    overrides on top), the classifier built as the engine builds it (engine/units.py BayesNetEntry)."""
    cls = builtin_class(spec)
    ds = load_dataset(dataset)
    s = dataset.settings(settings)
    X, pre = encode_all(ds, s)
    clf = BayesNetEntry(cls).build(spec, pre.cardinalities, ds.n_classes, s.missing)
    clf.fit(X, ds.y)
    return Model(dataset.name, spec.label, pre, clf)


def fitted_state(clf: BayesNetClassifier) -> dict[str, Any]:
    """The attributes a fit set (every instance attribute but the constructor's parameters)."""
    params = set(clf.get_params(deep=False))
    return {k: v for k, v in vars(clf).items() if k not in params}


def save(model: Model, path: str | Path) -> None:
    """Write `model` as a model file (docs/models.md); UserError if its classifier holds what the
    format cannot."""
    clf = model.classifier
    header = {"bncbench": __version__, "dataset": model.dataset, "label": model.label,
              "preprocessing": model.preprocessing.to_header(),
              "classifier": {"class": type(clf).__name__, "params": clf.get_params(deep=False),
                             "state": fitted_state(clf)}}
    try:
        modelfile.save(path, header)
    except modelfile.Unstorable as e:
        raise UserError(f"{type(clf).__name__} cannot be saved as a model file: {e}") from None


def load(path: str | Path) -> Model:
    """The model of a model file (UserError, one line, for a file that is not one)."""
    h = modelfile.load(path)
    try:
        c = h["classifier"]
        name = c["class"]
        if name not in REGISTRY:
            raise ValueError(f"an unknown classifier {name!r}")
        clf = REGISTRY[name](**c["params"])
        for k, v in c["state"].items():
            if not k.isidentifier() or k.startswith("__") or hasattr(type(clf), k) or k in c["params"]:
                raise ValueError(f"its state {k!r} is not a fitted attribute")
            setattr(clf, k, v)
        pre = Preprocessing.from_header(h["preprocessing"])
        if not np.array_equal(np.asarray(clf.cardinalities), pre.cardinalities) or clf.n_classes != len(pre.classes):
            raise ValueError("its classifier's cardinalities or classes are not its preprocessing's")
        return Model(str(h["dataset"]), str(h["label"]), pre, clf)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise UserError(f"{path}: the model file is damaged or not bncbench's ({type(e).__name__}: {e})") from None


def probabilities(model: Model, X: np.ndarray, where: str) -> np.ndarray:
    """P(y | x) of the coded rows X by the model's classifier. Its fitted state is as the model file
    (`where`) holds it, checked only in what `load` checks: an error of that state (an attribute
    missing, a table of another shape, in a hand-made or damaged file) is a UserError, one line."""
    if X.shape[0] == 0:
        return np.empty((0, len(model.preprocessing.classes)))
    try:
        return model.classifier.predict_proba(X)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as e:
        raise UserError(f"{where}: its classifier cannot predict from its stored state ({type(e).__name__}: {e}): "
                        f"the model file is damaged or hand-made; write it again with `bncbench fit`") from None
