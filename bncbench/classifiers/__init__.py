"""Bayesian network classifiers on discrete value codes, each a scikit-learn classifier
(BaseEstimator + ClassifierMixin: fit / predict_proba / predict / score, clone, model selection).

Layout: `base.py` is the contract every classifier implements (`BayesNetClassifier`: input checks,
predict / predict_proba from the model's joint log-likelihood); `kernels/` holds what two or more
families share (counts, estimators, tables, information measures, orders, structure learners); one
folder per family holds its classifiers and the code only that family uses: `nb/`, `tan/`, `kdb/`,
`ait/`, `aode/`, `ban/`. `REGISTRY` names the classifiers for configs. A researcher's own classifier
needs only the names exported here: `BayesNetClassifier`, the estimate and table helpers and the
information measures (docs/adding-a-classifier.md).
"""

from bncbench.classifiers.ait.ait import AIT
from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.iwaode import IWAODE
from bncbench.classifiers.aode.rc import RC, SPRC
from bncbench.classifiers.aode.sp import SP
from bncbench.classifiers.aode.subsumption import NSR, SR
from bncbench.classifiers.aode.taode import TAODE
from bncbench.classifiers.aode.wrappers import CAA, CAE, PAA, PAE
from bncbench.classifiers.ban.ban import BAN
from bncbench.classifiers.ban.kban import KBAN
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kdb.fkdb import FKDB
from bncbench.classifiers.kdb.kdb import KDB
from bncbench.classifiers.kdb.skdb import SKDB
from bncbench.classifiers.kernels.estimators import log_cond, log_joint, log_prior
from bncbench.classifiers.kernels.infotheory import cond_mutual_info as conditional_mutual_information
from bncbench.classifiers.kernels.infotheory import mutual_info_class as mutual_information
from bncbench.classifiers.kernels.infotheory import symmetrical_uncertainty
from bncbench.classifiers.kernels.tables import nb_tables, pair_table
from bncbench.classifiers.nb.cfwnb import CFWNB
from bncbench.classifiers.nb.nb import NB
from bncbench.classifiers.tan.stan import STAN
from bncbench.classifiers.tan.tan import TAN

#: the classifiers a config names by their class name
REGISTRY: dict[str, type[BayesNetClassifier]] = {
    c.__name__: c for c in (NB, TAN, KDB, AODE, STAN, SKDB, AIT, CFWNB, FKDB, TAODE, IWAODE, SP, RC, SPRC, PAA, CAA,
                            PAE, CAE, SR, NSR, KBAN, BAN)}

#: what a plug-in needs: the base class, estimates, tables and information measures from its count
#: tables (docs/adding-a-classifier.md); then the classifiers, registered once in REGISTRY
__all__ = ["REGISTRY", "BayesNetClassifier", "conditional_mutual_information", "log_cond", "log_joint", "log_prior",
           "mutual_information", "nb_tables", "pair_table", "symmetrical_uncertainty"]
__all__ += list(REGISTRY)
