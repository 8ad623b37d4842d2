"""The experiment model: the data sets, classifiers, preprocessing and evaluation scheme of a run,
its digest and its stored sections (config.py builds one from YAML; docs/architecture.md)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from bncbench.classifiers import REGISTRY
from bncbench.data import catalog
from bncbench.data.userdata import DEFAULT_ENCODING, ReadOptions
from bncbench.errors import UserError
from bncbench.evaluate.stats import WDL_DEFAULTS
from bncbench.preprocess.settings import PreprocessSettings
from bncbench.utils.suggest import did_you_mean

#: the executors an experiment may run on (engine/executors.py)
EXECUTORS = ("local", "dask")


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    path: str | None = None
    class_column: int | str | None = None
    #: preprocessing settings of this data set that differ from the config's, as sorted
    #: (key, value) pairs (e.g. paper 004's crx: MDL fitted once on the whole data set)
    preprocess: tuple[tuple[str, Any], ...] = ()
    #: how a file of one's own is read (missing-value markers, declared types, dropped columns)
    read: ReadOptions = field(default_factory=ReadOptions)
    #: where the config names a file of one's own ("config.yaml:LINE: datasets.I.path"), for its
    #: messages only: not part of the data set's identity, its digest or the stored sections
    entry: str = field(default="", compare=False)

    def stored(self) -> dict[str, Any]:
        """The fields that define the data set (all but `entry`), as digested and stored."""
        d = asdict(self)
        del d["entry"]
        return d

    def settings(self, base: PreprocessSettings) -> PreprocessSettings:
        """The preprocessing of this data set: the config's with this entry's overrides."""
        return replace(base, **dict(self.preprocess)) if self.preprocess else base


@dataclass
class ClassifierSpec:
    name: str
    label: str
    params: dict[str, Any]
    # the class `name` stands for (None for an entry read back by Experiment.from_json: a reader of
    # results imports no classifier): a BayesNetClassifier, or a scikit-learn classifier (a baseline)
    cls: type[Any] | None = field(default=None, compare=False, repr=False)

    def ident(self) -> dict:
        return {"name": self.name, "label": self.label, "params": self.params}

    @property
    def estimator_class(self) -> type[Any]:
        """`cls`, the scikit-learn estimator the entry names: always set in a parsed config; for an
        entry read back, the built-in its name is (imported now)."""
        cls = self.cls if self.cls is not None else REGISTRY.get(self.name)
        if cls is None:
            raise RuntimeError(f"classifier {self.name!r} has no class (a plug-in's entry read back from results)")
        return cls


@dataclass
class CVSpec:
    """The evaluation scheme (§5.1, §5.5). `petal-bv` is the C++ system's bias–variance
    experiment: `runs` experiments, each training on floor(N / divisor) sampled instances and
    testing on the same floor(N / divisor) others (one "fold" per run)."""

    scheme: str = "stratified"
    folds: int = 10
    runs: int = 1
    seed: int = 1
    divisor: int = 3  # petal-bv only: the sample size N // divisor (not part of other schemes' identity)

    @property
    def sampled(self) -> bool:
        """Whether the scheme is petal-bv, the one that takes `divisor` (one sample per run)."""
        return self.scheme == "petal-bv"

    def ident(self) -> dict:
        """What defines the splits (the task key's and the protocol's part)."""
        d = {"scheme": self.scheme, "folds": self.folds, "seed": self.seed}
        if self.sampled:
            d["divisor"] = self.divisor
        return d


@dataclass(frozen=True, kw_only=True)
class WdlSettings:
    """The validated `wdl:` section: the defaults of `bncbench wdl`, `ranks`, `gd`, the figures and
    the HTML report; `metric` None when the config sets none (docs/cli.md: wdl)."""

    metric: str | None = None
    draw: str = WDL_DEFAULTS["draw"]
    draws: str = WDL_DEFAULTS["draws"]
    tails: str = WDL_DEFAULTS["tails"]

    @property
    def default_metric(self) -> str:
        """The metric a command compares when neither its option nor the config names one."""
        return self.metric or "zol"


@dataclass(kw_only=True)
class Experiment:
    name: str
    datasets: list[DatasetSpec]
    classifiers: list[ClassifierSpec]
    preprocess: PreprocessSettings
    cv: CVSpec
    wdl: WdlSettings = field(default_factory=WdlSettings)
    source: str = ""
    description: str = ""
    shared: dict[str, Any] = field(default_factory=dict)  # the top-level classifier parameters the config sets
    executor: dict = field(default_factory=dict)  # {name: local|dask, jobs: N, scheduler: tcp://...}
    config_datasets: list[str] = field(default_factory=list)  # every data set and label of the config, in
    config_labels: list[str] = field(default_factory=list)    # its order (command-line subsets keep these)
    figures: dict = field(default_factory=dict)  # the validated `figures:` section; not in digest()

    def digest(self) -> str:
        d = {"datasets": [x.stored() for x in self.datasets], "classifiers": [c.ident() for c in self.classifiers],
             "preprocess": asdict(self.preprocess), "cv": self.cv.ident()}
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()

    def subset(self, datasets: list[str] | None = None, classifiers: list[str] | None = None,
               options: tuple[str, str] = ("--datasets", "--classifiers")) -> Experiment:
        """This experiment with only the given data sets (names or catalog aliases) and classifier
        labels, in the order given (None or empty: all); UserError, naming the option of `options`
        that gave it, for one it does not have."""
        chosen_datasets, chosen_classifiers = self.datasets, self.classifiers
        if datasets:
            known = {d.name: d for d in self.datasets}
            chosen_datasets = []
            for name in datasets:
                canon = name
                if name not in known:
                    try:
                        canon = catalog.resolve(name)
                    except UserError:
                        pass
                if canon not in known:
                    raise UserError(f"{options[0]}: {name!r} is not in the config{did_you_mean(name, list(known))}")
                chosen_datasets.append(known[canon])
        if classifiers:
            labels = {c.label: c for c in self.classifiers}
            for lab in classifiers:
                if lab not in labels:
                    raise UserError(f"{options[1]}: no classifier labelled {lab!r} in the config"
                                    f"{did_you_mean(lab, list(labels))}")
            chosen_classifiers = [labels[lab] for lab in classifiers]
        return replace(self, datasets=chosen_datasets, classifiers=chosen_classifiers)

    def shared_value(self, key: str) -> Any:
        """A top-level classifier parameter (estimator, m, ...): the config's, else the base class's default
        (read from its source: a reader of results imports no classifier, nor scikit-learn)."""
        if key in self.shared:
            return self.shared[key]
        from bncbench.classifiers import base_defaults

        return base_defaults()[key]

    def to_json(self) -> dict[str, Any]:
        """The validated sections as JSON, stored with the results (`Experiment.from_json` reads them)."""
        return {"name": self.name, "description": self.description,
                "datasets": [d.stored() for d in self.datasets], "classifiers": [c.ident() for c in self.classifiers],
                "preprocess": asdict(self.preprocess), "cv": asdict(self.cv), "wdl": asdict(self.wdl),
                "shared": self.shared, "executor": self.executor, "config_datasets": self.config_datasets,
                "config_labels": self.config_labels, "figures": self.figures}

    @classmethod
    def from_json(cls, d: dict[str, Any], source: str = "") -> Experiment:
        """The Experiment of `to_json`'s output (no classifier's `cls`: reading results imports no classifier)."""
        def dataset(x: dict) -> DatasetSpec:
            r = x["read"]
            read = ReadOptions(None if r["missing_values"] is None else tuple(r["missing_values"]), tuple(r["nominal"]),
                               tuple(r["numeric"]), tuple(r["drop"]), r.get("encoding", DEFAULT_ENCODING))
            return DatasetSpec(**{**x, "preprocess": tuple((k, v) for k, v in x["preprocess"]), "read": read})

        figures = {name: {k: [tuple(p) for p in v] if k == "pairs" else v for k, v in fig.items()}
                   if isinstance(fig, dict) else fig for name, fig in d["figures"].items()}  # style, width: as given
        return cls(name=d["name"], description=d["description"], datasets=[dataset(x) for x in d["datasets"]],
                   classifiers=[ClassifierSpec(c["name"], c["label"], c["params"]) for c in d["classifiers"]],
                   preprocess=PreprocessSettings(**d["preprocess"]), cv=CVSpec(**d["cv"]), wdl=WdlSettings(**d["wdl"]),
                   source=source, shared=d["shared"], executor=d["executor"], config_datasets=d["config_datasets"],
                   config_labels=d["config_labels"], figures=figures)
