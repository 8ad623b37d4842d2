"""Bayesian network classifiers on discrete value codes, each a scikit-learn classifier
(BaseEstimator + ClassifierMixin: fit / predict_proba / predict / score, clone, model selection)."""

from bncbench.classifiers.ait import AIT
from bncbench.classifiers.aode import AODE
from bncbench.classifiers.aode_wrappers import CAA, CAE, PAA, PAE
from bncbench.classifiers.ban import BAN
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.cfwnb import CFWNB
from bncbench.classifiers.fkdb import FKDB
from bncbench.classifiers.iwaode import IWAODE
from bncbench.classifiers.kban import KBAN
from bncbench.classifiers.kdb import KDB
from bncbench.classifiers.nb import NB
from bncbench.classifiers.rc import RC, SPRC
from bncbench.classifiers.skdb import SKDB
from bncbench.classifiers.sp import SP
from bncbench.classifiers.stan import STAN
from bncbench.classifiers.subsumption import NSR, SR
from bncbench.classifiers.tan import TAN
from bncbench.classifiers.taode import TAODE

#: the classifiers a config names by their class name
REGISTRY: dict[str, type[BayesNetClassifier]] = {
    c.__name__: c for c in (NB, TAN, KDB, AODE, STAN, SKDB, AIT, CFWNB, FKDB, TAODE, IWAODE, SP, RC, SPRC, PAA, CAA,
                            PAE, CAE, SR, NSR, KBAN, BAN)}

__all__ = ["AIT", "AODE", "BAN", "CAA", "CAE", "CFWNB", "FKDB", "IWAODE", "KBAN", "KDB", "NB", "NSR", "PAA", "PAE", "RC",
           "REGISTRY", "SKDB", "SP", "SPRC", "SR", "STAN", "TAN", "TAODE", "BayesNetClassifier"]
