"""The BIF export (docs/models.md: BIF): every single-network classifier's file, read by pgmpy, gives
its posteriors on data with missing values; the ensembles say why they have none; names BIF readers
accept."""

import numpy as np
import pytest
from pgmpy.readwrite import BIFReader

from bncbench.classifiers import REGISTRY
from bncbench.engine.units import load_dataset
from bncbench.experiment import ClassifierSpec, DatasetSpec
from bncbench.models import bif, fitting
from bncbench.preprocess.settings import PreprocessSettings
from tests.models.test_bif_pgmpy import _posteriors_from_cpds

NETWORKS = [("NB", {}), ("TAN", {}), ("STAN", {"ranking": "mi"}), ("KDB", {"k": 1, "backoff": True}),
            ("KDB", {"k": 3, "backoff": True}), ("KDB", {"k": 2}), ("SKDB", {}), ("FKDB", {}), ("BAN", {}),
            ("BAN", {"method": "hc"}), ("KBAN", {}), ("AIT", {"cip": False}), ("AIT", {"cip": False, "base": "KDB"})]
#: data sets with missing values (their own state under distinct), nominal and numeric
CASES = [("house-votes-84", PreprocessSettings(missing="distinct", scope="global")),
         ("labor-negotiations", PreprocessSettings(missing="distinct", scope="global"))]


@pytest.mark.parametrize("name,params", NETWORKS, ids=[f"{n}{p}" for n, p in NETWORKS])
@pytest.mark.parametrize("dataset,settings", CASES, ids=[c[0] for c in CASES])
def test_every_network_classifier_gives_its_posteriors_in_pgmpy(tmp_path, name, params, dataset, settings):
    model = fitting.fit(DatasetSpec(dataset), ClassifierSpec(name, name, params, REGISTRY[name]), settings)
    net = bif.network(model)
    assert isinstance(net, bif.Network), net
    if name == "STAN" and dataset == "labor-negotiations":  # an unselected parent: a root without the class
        assert any(not parents for _, _, parents, _ in net.nodes)
    bif.write(net, tmp_path / "m.bif")
    pg = BIFReader(str(tmp_path / "m.bif")).get_model()
    assert pg.check_model()
    ds = load_dataset(DatasetSpec(dataset))
    X, pre = fitting.encode_all(ds, settings)
    written = dict(zip(pre.names, bif.variable_names(pre.names)))
    rows_of = {}
    for i, n in enumerate(pre.names):
        if written[n] in pg.nodes():
            states = pg.get_cpds(written[n]).state_names[written[n]]
            names = [bif.state_name(s) for s in pre.states[i]]
            rows_of[written[n]] = np.array([states.index(names[c]) for c in range(len(names))])[X[:, i]]
    p = _posteriors_from_cpds(pg, rows_of, bif.CLASS)
    assert np.abs(p - model.classifier.predict_proba(X)).max() < 1e-9


@pytest.mark.parametrize("name", [n for n in REGISTRY if n in bif.NO_NETWORK])
def test_an_ensemble_says_why_it_has_no_network(name):
    model = fitting.fit(DatasetSpec("house-votes-84"), ClassifierSpec(name, name, {}, REGISTRY[name]),
                        PreprocessSettings(scope="global"))
    reason = bif.network(model)
    assert isinstance(reason, str) and "\n" not in reason and reason == bif.NO_NETWORK[name]


def test_every_classifier_is_a_network_or_says_why_not():
    single = {n for n, _ in NETWORKS}
    assert set(REGISTRY) == single | set(bif.NO_NETWORK)
    assert all(hasattr(REGISTRY[n], "network_tables") for n in single)


def test_ait_with_local_networks_and_a_joint_estimator_have_no_network():
    ait = fitting.fit(DatasetSpec("house-votes-84"), ClassifierSpec("AIT", "AIT", {}, REGISTRY["AIT"]),
                      PreprocessSettings(scope="global"))
    reason = bif.network(ait)
    assert isinstance(reason, str) and "per test row" in reason
    tan = fitting.fit(DatasetSpec("house-votes-84"),
                      ClassifierSpec("TAN", "TAN", {"estimator": "laplace_joint"}, REGISTRY["TAN"]),
                      PreprocessSettings(scope="global"))
    reason = bif.network(tan)
    assert isinstance(reason, str) and "does not sum to 1" in reason


def test_names_bif_readers_accept():
    assert bif.variable_names(["a b", "a_b", "class", "Class", "", "x.1-2"]) == \
        ["a_b", "a_b_2", "class_2", "Class_3", "_", "x.1-2"]
    assert bif.state_name("(-inf-0.5]") == "(-inf-0.5]"
    assert bif.state_name("a,b }") == "a%2Cb%20%7D"
    assert bif.state_name("") == "%" and bif.state_name("%") == "%25" and bif.state_name("é") == "%C3%A9"
