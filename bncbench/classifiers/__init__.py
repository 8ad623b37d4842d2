"""Bayesian network classifiers on discrete value codes, each a scikit-learn classifier
(BaseEstimator + ClassifierMixin: fit / predict_proba / predict / score, clone, model selection)."""

from bncbench.classifiers.aode import AODE
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kdb import KDB
from bncbench.classifiers.nb import NB
from bncbench.classifiers.stan import STAN
from bncbench.classifiers.tan import TAN

REGISTRY: dict[str, type[BayesNetClassifier]] = {"NB": NB, "TAN": TAN, "KDB": KDB, "AODE": AODE, "STAN": STAN}

__all__ = ["AODE", "BayesNetClassifier", "KDB", "NB", "STAN", "TAN", "REGISTRY"]
