"""Experiment configuration: a YAML config turned into an `Experiment` (bncbench/experiment.py) by strict
validation (offending key, line, nearest valid name)."""

from __future__ import annotations

import codecs
import importlib
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast

from bncbench.classifiers import REGISTRY
from bncbench.classifiers.kernels.params import ENGINE_PARAMS, SHARED_PARAMS, Param
from bncbench.classifiers.sklearn_entry import check_estimator, constructor_params, not_a_classifier
from bncbench.data import catalog
from bncbench.data.userdata import DEFAULT_ENCODING, ReadOptions, file_format
from bncbench.errors import UserError
from bncbench.experiment import EXECUTORS, ClassifierSpec, CVSpec, DatasetSpec, Experiment, WdlSettings
from bncbench.preprocess.features import BASELINE_OPTIONS
from bncbench.preprocess.folds import SCHEMES
from bncbench.preprocess.settings import PreprocessSettings
from bncbench.strict_yaml import KeyLines, read_yaml
from bncbench.utils.names import folder_name_problem
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    from bncbench.classifiers.base import BayesNetClassifier

#: the largest config file read (a config is a few kilobytes; YAML's reader takes about 1 s per 250 KiB)
MAX_CONFIG_BYTES = 256 * 1024
#: the most cv.runs (the papers' protocols need at most 50): a plan of a billion runs would take
#: hours to build before its first task, without a word
MAX_RUNS = 1000
TOP_KEYS = {"name", "description", "datasets", "classifiers", "preprocess", "cv", "estimator", "m",
            "info_precision", "wdl", "executor", "figures"}
PREPROCESS_CHOICES = {
    "missing": ("distinct", "impute", "skip"),
    "discretizer": ("eqfreq", "mdl"),
    "eqfreq_method": ("petal", "weka", "quantile"),
    "mdl_method": ("weka", "petal"),
    "scope": ("fold", "global"),
}
CV_KEYS = {"scheme": SCHEMES, "folds": int, "runs": int, "seed": int, "divisor": int}


#: the keys of a data-set entry naming a file of one's own (`path:`), and of a catalog entry
USER_ENTRY_KEYS = {"name", "path", "class", "preprocess", "missing_values", "nominal", "numeric", "drop", "encoding"}
CATALOG_ENTRY_KEYS = {"name", "preprocess"}
#: equal-frequency cuts of a data set of one's own when neither the config nor its entry sets
#: eqfreq_method: the quantile rule on float64 values (cuts are values of the file), not on the
#: float32 values of paper 000's C++ system (`petal`), which stays the default of catalog data
#: sets (so the paper configs and their stored results stay as they are)
USER_EQFREQ_METHOD = "quantile"


class _Checker:
    def __init__(self, file: str, lines: KeyLines):
        self.file, self.lines = file, lines

    def at(self, path) -> str:
        """Where a key is, as messages name it: "FILE:LINE: KEY" (the file alone for the whole config)."""
        line = self.lines.of(path)
        where = f"{self.file}:{line}" if line else self.file
        key = ".".join(str(p) for p in path)
        return f"{where}: {key}" if key else where

    def fail(self, path, msg) -> NoReturn:
        raise UserError(f"{self.at(path)}: {msg}")

    def mapping(self, value, path, allowed):
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping, got {type(value).__name__}")
        for k in value:
            if k not in allowed:
                self.fail(path + [k],
                          f"unknown key {k!r}{did_you_mean(k, allowed)}; valid keys: {', '.join(sorted(allowed))}")
        return value

    def choice(self, value, path, choices):
        if value not in choices:
            self.fail(path, f"invalid value {value!r}{did_you_mean(value, choices)}; "
                            f"choose one of {', '.join(map(str, choices))}")
        return value

    def param(self, value, path, name: str, param: Param):
        """A classifier parameter's value against its declaration (a float parameter's value as a float)."""
        if param.choices and isinstance(value, str):
            self.choice(value, path, param.choices)
        if not param.type_ok(value):
            kind = param.kind.__name__ + (" or null" if param.none else "")
            self.fail(path, f"expected {kind}, got {value!r}")
        if not param.value_ok(value):
            self.fail(path, f"{name} must be {param.describe()}, got {value!r}")
        return float(value) if param.kind is float and value is not None else value

    def typed(self, value, path, typ, minimum=None):
        ok = isinstance(value, typ) and not (typ in (int, float) and isinstance(value, bool))
        if typ is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            self.fail(path, f"expected {typ.__name__}, got {value!r}")
        if minimum is not None and value < minimum:
            self.fail(path, f"must be ≥ {minimum}, got {value!r}")
        return value


def _resolve_classifier(name, ck: _Checker, path: list, config_dir: Path) -> type:
    """The class a config's classifier `name` stands for: a built-in (REGISTRY) or, for
    "module.path:ClassName", a class imported from the config's folder, the current folder or the
    installed packages: a subclass of BayesNetClassifier (docs/adding-a-classifier.md) or a
    scikit-learn classifier (a baseline, checked by `_baseline_params`)."""
    if name in REGISTRY:
        return REGISTRY[name]
    if not isinstance(name, str) or ":" not in name:
        ck.fail(path, f"unknown classifier {name!r}{did_you_mean(name, REGISTRY)}; available: {', '.join(REGISTRY)}, "
                      f"or your own as module.path:ClassName")
    module, _, attr = name.partition(":")
    if not all(part.isidentifier() for part in module.split(".")) or not attr.isidentifier():
        ck.fail(path, f"classifier {name!r} is not of the form module.path:ClassName (Python names joined by dots, "
                      f"a colon, a class name)")
    plugin_path(config_dir)
    try:
        mod = importlib.import_module(module)
    except Exception as e:  # the user's module: any error it raises on import is reported in one line
        ck.fail(path, f"cannot import module {module!r} of classifier {name!r}: {type(e).__name__}: "
                      f"{str(e).splitlines()[0] if str(e) else ''} (searched {config_dir}, the current folder and "
                      f"the installed packages)")
    cls = getattr(mod, attr, None)
    if cls is None:
        public = [n for n in dir(mod) if not n.startswith("_")]
        ck.fail(path, f"module {module!r} has no {attr!r}{did_you_mean(attr, public)}")
    if not isinstance(cls, type):
        ck.fail(path, f"{name!r} is not a class but a {type(cls).__name__}; name a subclass of "
                      f"bncbench.classifiers.BayesNetClassifier or a scikit-learn classifier")
    why = not_a_classifier(cls)
    if why:
        ck.fail(path, f"{name!r} {why}")
    return cls


def plugin_path(folder: Path) -> None:
    """Make modules in `folder` (and the current folder) importable here and in worker processes
    started from here (loky, a Dask LocalCluster): sys.path and PYTHONPATH."""
    for d in (str(Path(folder).resolve()), str(Path.cwd())):
        if d not in sys.path:
            sys.path.insert(0, d)
        parts = [x for x in os.environ.get("PYTHONPATH", "").split(os.pathsep) if x]
        if d not in parts:
            os.environ["PYTHONPATH"] = os.pathsep.join([d, *parts])


def _selectable(name: str) -> bool:
    """Whether a label or data-set name can be given in a comma-separated command-line list."""
    return bool(name.strip()) and "," not in name and all(ord(ch) >= 32 and ord(ch) != 127 for ch in name)


def _classifier_params(cls) -> dict[str, Param]:
    """The parameters a config may set for `cls` (its declared ones but those the engine sets)."""
    return {k: p for k, p in cls.param_constraints().items() if k not in ENGINE_PARAMS}


def _preprocess_overrides(ck: _Checker, raw, path: list) -> tuple[tuple[str, Any], ...]:
    """Validated preprocessing keys of a `preprocess:` mapping, as sorted (key, value) pairs."""
    pre = dict(raw or {})
    ck.mapping(pre, path, set(PREPROCESS_CHOICES) | {"bins"})
    for k, choices in PREPROCESS_CHOICES.items():
        if k in pre:
            ck.choice(pre[k], [*path, k], choices)
    if "bins" in pre:
        ck.typed(pre["bins"], [*path, "bins"], int, 2)
    return tuple(sorted(pre.items()))


def _published_table(ck: _Checker, value, path: list, config_dir: Path, labels: list[str]) -> str:
    """`figures: cd: with:`: a wide table's file (relative to the config's folder), read as `wdl
    TABLE` reads it, no column named as one of the config's `labels`; kept as an absolute path
    (the figures are drawn from another folder)."""
    from bncbench.evaluate.published import read

    if not isinstance(value, str) or not value.strip():
        ck.fail(path, f"expected the file of a published wide table (TSV/CSV), got {value!r}")
    file = (config_dir / value).resolve()
    try:
        table = read(str(file), "")
    except UserError as e:
        ck.fail(path, str(e).lstrip())
    clash = [lab for lab in table.labels if lab in labels]
    if clash:
        ck.fail(path, f"{file}: column {clash[0]!r} is also a classifier of the config; rename the table's column "
                      f"(e.g. {clash[0] + ' (published)'!r})")
    return str(file)


def _figures(ck: _Checker, raw, labels: list[str], config_dir: Path) -> dict[str, Any]:
    """The validated `figures:` section: {figure: {key: value}} with `metric` as a list of metric
    names, `pairs` as [(A, B), ...], `with` as an absolute path; labels must be among `labels` (the
    figures and their keys: evaluate/figures.py `KINDS`); `style` and `width`, the look of every
    figure (evaluate/figure_style.py), as given."""
    from bncbench.evaluate import options
    from bncbench.evaluate.figure_style import STYLES, WIDTHS
    from bncbench.evaluate.figures import KIND
    from bncbench.evaluate.metrics import METRICS

    out: dict[str, Any] = {}
    ck.mapping(raw, ["figures"], {*KIND, "style", "width"})
    for key, choices in (("style", STYLES), ("width", tuple(WIDTHS))):
        if key in raw:
            out[key] = ck.choice(raw[key], ["figures", key], choices)
    if out.get("width") and out.get("style") != "paper":
        ck.fail(["figures", "width"], "only with style: paper (the default style draws each figure at its own size)")
    for name, section in ((k, v) for k, v in raw.items() if k in KIND):
        path = ["figures", name]
        section = {} if section is None else section
        ck.mapping(section, path, set(KIND[name].keys))
        fig: dict[str, Any] = {}
        for k, v in section.items():
            if k in ("a", "b"):
                fig[k] = ck.choice(v, [*path, k], labels)
            elif k in ("rows", "classifiers"):
                if not isinstance(v, list) or not v:
                    ck.fail([*path, k], f"expected a non-empty list of classifier labels, got {v!r}")
                fig[k] = [ck.choice(x, [*path, k, i], labels) for i, x in enumerate(v)]
            elif k == "metric":
                metrics = v if isinstance(v, list) else [v]
                if not metrics:
                    ck.fail([*path, k], "expected a metric name or a non-empty list of them")
                fig[k] = [ck.choice(m, [*path, k, i] if isinstance(v, list) else [*path, k], METRICS)
                          for i, m in enumerate(metrics)]
            elif k in ("split", "samples"):
                fig[k] = ck.typed(v, [*path, k], int, 1)
            elif k == "seed":
                fig[k] = ck.typed(v, [*path, k], int, 0)
            elif k == "alpha":
                try:
                    fig[k] = options.alpha(float(ck.typed(v, [*path, k], float)))
                except ValueError:
                    ck.fail([*path, k], f"must be between 0 and 1 (e.g. 0.05), got {v!r}")
            elif k == "with":
                fig[k] = _published_table(ck, v, [*path, k], config_dir, labels)
            elif k == "rope":
                try:
                    fig[k] = options.rope(float(ck.typed(v, [*path, k], float)))
                except ValueError:
                    ck.fail([*path, k], f"must be a width ≥ 0 in the metric's units (e.g. 0.01 for zol), got {v!r}")
            else:  # pairs
                if not isinstance(v, list) or not v:
                    ck.fail([*path, k], f"expected a non-empty list of 'A:B' pairs, got {v!r}")
                fig[k] = []
                for i, item in enumerate(v):
                    try:
                        ((a, b),) = options.pairs(str(item))
                    except ValueError:
                        ck.fail([*path, k, i], f"{item!r} is not of the form A:B (a classifier against another)")
                    fig[k].append(tuple(ck.choice(x, [*path, k, i], labels) for x in (a, b)))
                    if name == "bayes" and fig[k][-1][0] == fig[k][-1][1]:
                        ck.fail([*path, k, i], f"{item!r} compares a classifier with itself")
        out[name] = fig
    return out


def parse(text: str, file: str = "<config>") -> Experiment:
    """Validate a config text and build the `Experiment` (UserError on the first problem).
    The sections are checked in this order: the top-level keys, preprocess, cv, the shared
    classifier parameters, datasets, classifiers, wdl, executor, figures."""
    raw, node = read_yaml(text, file)
    ck = _Checker(file, KeyLines(node))
    if raw is None:
        ck.fail([], "the config is empty")
    ck.mapping(raw, [], TOP_KEYS)
    for req in ("datasets", "classifiers"):
        if req not in raw:
            ck.fail([], f"missing required key {req!r}")
    name = _name(ck, raw, file)
    config_pre = dict(_preprocess_overrides(ck, raw.get("preprocess"), ["preprocess"]))
    settings = PreprocessSettings(**config_pre)
    cv = _cv(ck, raw.get("cv"))
    shared = _shared_params(ck, raw)
    datasets = _datasets(ck, raw["datasets"], file, config_pre)
    classifiers = _classifiers(ck, raw["classifiers"], shared, settings, datasets, Path(file).parent)
    wdl = _wdl(ck, raw.get("wdl"))
    ex = _executor(ck, raw.get("executor"))
    figures = {} if raw.get("figures") is None else _figures(ck, raw["figures"], [c.label for c in classifiers],
                                                                  Path(file).parent)
    return Experiment(name=name, datasets=datasets, classifiers=classifiers, preprocess=settings, cv=cv, wdl=wdl,
                      source=text, description=str(raw.get("description") or ""), shared=shared, executor=dict(ex),
                      config_datasets=[d.name for d in datasets], config_labels=[c.label for c in classifiers],
                      figures=figures)


def _name(ck: _Checker, raw: dict, file: str) -> str:
    """The experiment's validated name (`name:`, else the config file's name without its suffix):
    one plain folder name, since results go to results/<name> by default."""
    value = raw.get("name", Path(file).stem)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        ck.fail(["name"], f"expected a plain folder name, got {value!r}")
    name = str(value)
    # a location ending in .sqlite is a store's file, not its folder (engine/store.py store_path)
    problem = folder_name_problem(name) or ("ends in .sqlite (the name of a store's file, not of a folder)"
                                            if Path(name).suffix == ".sqlite" else None)
    if problem and "name" not in raw:
        ck.fail([], f"the experiment's name is the config file's, {name!r}, which {problem}; give a plain folder "
                    f"name with name: (results go to results/<name>)")
    if problem:
        ck.fail(["name"], f"{name!r} {problem}; the experiment's name must be a plain folder name (results go to "
                          f"results/<name>)")
    return name


def _cv(ck: _Checker, raw) -> CVSpec:
    """The validated `cv:` section."""
    cvraw = dict(raw or {})
    ck.mapping(cvraw, ["cv"], set(CV_KEYS))
    for k, spec in CV_KEYS.items():
        if k in cvraw:
            if isinstance(spec, tuple):
                ck.choice(cvraw[k], ["cv", k], spec)
            else:
                ck.typed(cvraw[k], ["cv", k], int, 0 if k == "seed" else (1 if k == "runs" else 2))
    if cvraw.get("runs", 1) > MAX_RUNS:
        ck.fail(["cv", "runs"], f"{cvraw['runs']} runs is more than {MAX_RUNS} (the papers' protocols use at most "
                                f"50); give fewer runs")
    cv = CVSpec(**cvraw)
    if cv.sampled:
        if "folds" in cvraw:
            ck.fail(["cv", "folds"], "cv.folds does not apply to scheme petal-bv (one training sample and the fixed "
                                     "test set per run; their size is N // cv.divisor)")
        return replace(cv, folds=1)
    if "divisor" in cvraw:
        ck.fail(["cv", "divisor"], "cv.divisor applies only to scheme petal-bv (the sample size N // divisor)")
    return cv


def _shared_params(ck: _Checker, raw: dict) -> dict[str, Any]:
    """The top-level classifier parameters (SHARED_PARAMS) the config sets."""
    return {k: ck.param(raw[k], [k], k, p) for k, p in SHARED_PARAMS.items() if k in raw}


def _datasets(ck: _Checker, dsraw, file: str, config_pre: dict[str, Any]) -> list[DatasetSpec]:
    """The validated `datasets:` list (catalog names resolved, user files' paths relative to the
    config's folder unless they exist from the current one). `config_pre` holds the preprocessing
    keys the config sets (a file of one's own gets USER_EQFREQ_METHOD unless one sets eqfreq_method)."""
    if not isinstance(dsraw, list) or not dsraw:
        ck.fail(["datasets"], "expected a non-empty list of data-set names or {name, path, class} entries")
    datasets = []
    for i, d in enumerate(dsraw):
        if isinstance(d, str):
            try:
                datasets.append(DatasetSpec(catalog.resolve_to_run(d)))
            except UserError as e:
                ck.fail(["datasets", i], str(e))
            continue
        if not isinstance(d, dict):
            ck.fail(["datasets", i], f"expected a data-set name or a {{name, path, class}} mapping, got {d!r}")
        if "path" not in d:
            for k in d:
                if k in USER_ENTRY_KEYS - CATALOG_ENTRY_KEYS:
                    ck.fail(["datasets", i, k], f"{k!r} applies only to a file of your own (an entry with path:); "
                                                f"a catalog data set is read as the catalog says")
        ck.mapping(d, ["datasets", i], USER_ENTRY_KEYS if "path" in d else CATALOG_ENTRY_KEYS)
        if "name" not in d:
            ck.fail(["datasets", i], "a data-set entry needs 'name'")
        over = _preprocess_overrides(ck, d.get("preprocess"), ["datasets", i, "preprocess"])
        if "path" not in d:
            try:
                datasets.append(DatasetSpec(catalog.resolve_to_run(str(d["name"])), preprocess=over))
            except UserError as e:
                ck.fail(["datasets", i, "name"], str(e))
            continue
        p = Path(d["path"])
        if not p.is_absolute():
            p = (Path(file).parent / p) if not p.exists() else p
        if not _selectable(str(d["name"])):
            ck.fail(["datasets", i, "name"], f"data-set name {d['name']!r} has a comma or a control "
                                              f"character; data sets are selected with --datasets a,b")
        effective = {**config_pre, **dict(over)}
        if effective.get("discretizer", "eqfreq") == "eqfreq" and "eqfreq_method" not in effective:
            over = tuple(sorted((*over, ("eqfreq_method", USER_EQFREQ_METHOD))))
        datasets.append(DatasetSpec(str(d["name"]), str(p), _class_key(ck, d, i), over, _read_options(ck, d, i, p),
                                    ck.at(["datasets", i, "path"])))
    seen = set()
    for i, d in enumerate(datasets):
        if d.name in seen:
            ck.fail(["datasets", i], f"data set {d.name!r} is listed twice")
        seen.add(d.name)
    return datasets


def _class_key(ck: _Checker, d: dict, i: int) -> int | str | None:
    """The `class:` of a user's entry: a column name or index (None: the last column)."""
    c = d.get("class")
    if c is not None and (isinstance(c, bool) or not isinstance(c, (int, str))):
        ck.fail(["datasets", i, "class"], f"expected a column name or index, got {c!r}")
    return c


def _read_options(ck: _Checker, d: dict, i: int, path: Path) -> ReadOptions:
    """The validated `missing_values`, `nominal`, `numeric`, `drop` and `encoding` of a user's entry (the
    column names are checked against the file when it is loaded)."""
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("missing_values", "nominal", "numeric", "drop"):
        if key not in d:
            continue
        v = d[key]
        if not isinstance(v, list):
            ck.fail(["datasets", i, key], f"expected a list, got {v!r}")
        what = "marker" if key == "missing_values" else "column name"
        items = []
        for j, x in enumerate(v):
            ok = isinstance(x, (str, int)) or (key == "missing_values" and isinstance(x, float))
            if isinstance(x, bool) or not ok:
                ck.fail(["datasets", i, key, j], f"expected a {what}, got {x!r}" +
                        (" (quote it: YAML reads yes/no/true/false as booleans)" if isinstance(x, bool) else ""))
            if str(x) in items:
                ck.fail(["datasets", i, key, j], f"{x!r} is listed twice")
            items.append(str(x))
        lists[key] = tuple(items)
    if file_format(path) == "arff":
        for key in ("missing_values", "nominal", "numeric"):
            if key in lists:
                ck.fail(["datasets", i, key], f"{key!r} applies to CSV and TSV files; an ARFF file declares its "
                                              f"columns' types and marks a missing value with ?")
    numeric, drop = (set(lists.get(k, ())) for k in ("numeric", "drop"))
    for a, b in (("nominal", "numeric"), ("drop", "nominal"), ("drop", "numeric")):
        both = sorted(set(lists.get(a, ())) & set(lists.get(b, ())))
        if both:
            ck.fail(["datasets", i, b], f"column {both[0]!r} is listed under both {a} and {b}")
    cls = d.get("class")
    if isinstance(cls, str) and cls in drop | numeric:
        key = "drop" if cls in drop else "numeric"
        ck.fail(["datasets", i, key], f"{cls!r} is the class column" +
                (" (the class is always nominal)" if key == "numeric" else ""))
    encoding = d.get("encoding", DEFAULT_ENCODING)
    if not isinstance(encoding, str):
        ck.fail(["datasets", i, "encoding"], f"expected an encoding's name such as utf-8, latin-1 or cp1252, got "
                                             f"{encoding!r}")
    try:
        codecs.lookup(encoding)
    except LookupError:
        ck.fail(["datasets", i, "encoding"], f"unknown encoding {encoding!r}; e.g. utf-8 (the default), latin-1, "
                                             f"cp1252, utf-16")
    return ReadOptions(lists.get("missing_values"), lists.get("nominal", ()), lists.get("numeric", ()),
                       lists.get("drop", ()), encoding)


def _classifiers(ck: _Checker, clraw, shared: dict[str, Any], settings: PreprocessSettings,
                 datasets: list[DatasetSpec], config_dir: Path) -> list[ClassifierSpec]:
    """The validated `classifiers:` list, each with its own label."""
    if not isinstance(clraw, list) or not clraw:
        ck.fail(["classifiers"], "expected a non-empty list of {name: ..., label: ...} entries")
    classifiers = []
    labels = set()
    for i, c in enumerate(clraw):
        if isinstance(c, str):
            c = {"name": c}
        if not isinstance(c, dict):
            ck.fail(["classifiers", i], f"expected a name or a {{name: ..., label: ...}} mapping, got {c!r}")
        cname = c.get("name")
        cls = _resolve_classifier(cname, ck, ["classifiers", i, "name"], config_dir)
        modes = {"skip" if d.settings(settings).missing == "skip" else "value" for d in datasets}
        from bncbench.classifiers import BayesNetClassifier

        if issubclass(cls, BayesNetClassifier):
            params = _classifier_entry_params(ck, c, i, cls, shared)
            label = str(c.get("label") or (cname if cname in REGISTRY else cls.__name__))
            unsupported = sorted(modes - set(cast("type[BayesNetClassifier]", cls).SUPPORTED_MISSING))
            if unsupported:
                ck.fail(["classifiers", i, "name"], f"{cname} does not support missing values handled as "
                                                    f"'{unsupported[0]}' (preprocess.missing: skip); "
                                                    "use distinct or impute")
        else:  # a scikit-learn classifier as a baseline
            params = _baseline_params(ck, c, i, cls, "skip" in modes)
            label = str(c.get("label") or cls.__name__)
        if not _selectable(label):
            ck.fail(["classifiers", i, "label"], f"label {label!r} has a comma or a control character; "
                                                  f"labels are selected with --classifiers L1,L2")
        if label in labels:
            ck.fail(["classifiers", i, "label"], f"label {label!r} is used twice; give each entry its own label")
        labels.add(label)
        classifiers.append(ClassifierSpec(str(cname), label, params, cls))  # a str: _resolve_classifier checked
    return classifiers


def _baseline_params(ck: _Checker, c: dict, i: int, cls: type, skips: bool) -> dict[str, Any]:
    """The parameters of a scikit-learn classifier's entry `i` (`c`): bncbench's `encoding` and
    `input`, and the estimator's constructor parameters, checked against its signature and by
    scikit-learn (classifiers/sklearn_entry.py `check_estimator`); the config's shared parameters of the
    Bayesian network classifiers are not passed to it. `skips`: a data set has `missing: skip`."""
    cname = c["name"]
    accepted, any_keyword = constructor_params(cls)
    params: dict[str, Any] = {}
    for k, v in c.items():
        if k in ("name", "label"):
            continue
        if k in BASELINE_OPTIONS:
            params[k] = ck.choice(v, ["classifiers", i, k], BASELINE_OPTIONS[k])
        elif k in accepted or any_keyword:
            params[k] = v
        else:
            valid = [*accepted, *BASELINE_OPTIONS]
            ck.fail(["classifiers", i, k], f"unknown parameter {k!r} of {cname}{did_you_mean(k, valid)}; "
                                           f"valid: {', '.join(valid)}")
    if skips and params.get("encoding") == "ordinal":
        ck.fail(["classifiers", i, "encoding"], "encoding: ordinal has no code for a value skipped under "
                                                "preprocess.missing: skip; use encoding: onehot (a skipped value "
                                                "sets none of its attribute's columns) or missing: distinct or impute")
    try:
        check_estimator(cls, cname, {k: v for k, v in params.items() if k not in BASELINE_OPTIONS})
    except ValueError as e:
        key = next((k for k in params if f"'{k}'" in str(e) or f"{k}=" in str(e)), "name")
        ck.fail(["classifiers", i, key], str(e))
    return params


def _classifier_entry_params(ck: _Checker, c: dict, i: int, cls: type[BayesNetClassifier],
                             shared: dict[str, Any]) -> dict[str, Any]:
    """The parameters of classifier entry `i` (`c`, of class `cls`): the shared ones it takes and
    its own, checked against the class's declarations (`param_constraints`) and its own
    `_check_params` (rules across parameters)."""
    cname = c.get("name")
    allowed = _classifier_params(cls)
    params = {k: v for k, v in shared.items() if k in allowed}
    for k, v in c.items():
        if k in ("name", "label"):
            continue
        if k not in allowed:
            ck.fail(["classifiers", i, k], f"unknown parameter {k!r} of {cname}{did_you_mean(k, allowed)}; "
                                           f"valid: {', '.join(allowed)}")
        params[k] = ck.param(v, ["classifiers", i, k], k, allowed[k])
    try:
        check = getattr(cls(**params), "_check_params", None)  # the model's own rules (a ratio in (0, 1], ...)
    except Exception as e:  # a plug-in's constructor: reported in one line
        ck.fail(["classifiers", i, "name"], f"{cname}({', '.join(f'{k}={v!r}' for k, v in params.items())}) "
                                            f"failed: {type(e).__name__}: {e}")
    if check is not None:
        try:
            check()
        except ValueError as e:
            key = next((k for k in c if k not in ("name", "label") and k in str(e)), "name")
            ck.fail(["classifiers", i, key], str(e))
    return params


def _wdl(ck: _Checker, raw) -> WdlSettings:
    """The validated `wdl:` section (the defaults of `bncbench wdl`)."""
    from bncbench.evaluate.stats import DRAWS, TAILS, parse_draw

    wdl = dict(raw or {})
    ck.mapping(wdl, ["wdl"], {"draw", "draws", "tails", "metric"})
    for k, choices in (("draws", DRAWS), ("tails", TAILS)):
        if k in wdl:
            ck.choice(wdl[k], ["wdl", k], choices)
    if "draw" in wdl:
        try:
            parse_draw(str(wdl["draw"]))
        except ValueError as e:
            ck.fail(["wdl", "draw"], str(e))
    if "metric" in wdl:
        from bncbench.evaluate.metrics import METRICS

        ck.choice(wdl["metric"], ["wdl", "metric"], METRICS)
    return WdlSettings(**{k: str(v) for k, v in wdl.items()})


def _executor(ck: _Checker, raw) -> dict:
    """The validated `executor:` section (a name alone may be given as a string)."""
    ex = raw or {}
    if isinstance(ex, str):
        ex = {"name": ex}
    ck.mapping(ex, ["executor"], {"name", "jobs", "scheduler"})
    if "name" in ex:
        ck.choice(ex["name"], ["executor", "name"], EXECUTORS)
    if "jobs" in ex:
        ck.typed(ex["jobs"], ["executor", "jobs"], int, 1)
    if "scheduler" in ex:
        ck.typed(ex["scheduler"], ["executor", "scheduler"], str)
    return ex


def load(path: str) -> Experiment:
    """The validated `Experiment` of a config file (at most MAX_CONFIG_BYTES of UTF-8 text)."""
    p = Path(path)
    if not p.is_file():
        raise UserError(f"{path}: no such config file")
    try:
        with p.open("rb") as f:
            data = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as e:
        raise UserError(f"{path}: cannot read the config: {e.strerror}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise UserError(f"{path}: larger than {MAX_CONFIG_BYTES // 1024} KiB; a config is a short YAML file (is this "
                        f"the right file?)")
    try:
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads it
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise UserError(f"{path}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x}); a config is a YAML text "
                        f"file") from None
    return parse(text, str(path))
