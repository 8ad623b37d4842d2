"""A config is checked before anything is built, strictly, and names never write outside the
folder given (issue 36: items 5, 7 and the empty selections of 10). Every refusal is exit code 2
and one line naming the config file (and line), and writes nothing: no results folder, no file a
classifier's constructor would have made, no figure or export file."""

import hashlib
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from bncbench import config
from bncbench.errors import UserError
from tests.support.cli import bnc, bnc_in, run_store


def bnc_codes(*args) -> tuple[int, str, str]:
    """`bncbench ARGS` in this process: (exit code, stdout, stderr)."""
    r = bnc_in(*args)
    return r.returncode, r.stdout, r.stderr


#: a YAML "billion laughs": ten lists of ten aliases of the one before, 10**9 strings once expanded, in
#: a parameter of a scikit-learn classifier's entry (before issue 36 it hung or took 2.4 GB)
BOMB = ("datasets: [iris]\nclassifiers:\n  - name: \"sklearn.ensemble:RandomForestClassifier\"\n    class_weight:\n"
        "      - &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + "".join(f"      - &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10)))

IRIS = "datasets: [iris]\ncv: {folds: 3}\n"

#: case: (config text, words of the one line; the line is `<config>:N:` when the words start with ":N:")
BAD_CONFIGS = {
    # duplicate keys (YAML keeps the last silently): both lines named
    "classifiers_twice": ("name: dup\ndatasets: [iris]\nclassifiers: [NB]\ncv: {folds: 3}\nclassifiers: [TAN]\n",
                          ":5: key 'classifiers' is given twice, on lines 3 and 5"),
    "key_twice_in_a_classifier": (IRIS + "classifiers:\n  - name: KDB\n    k: 1\n    k: 2\n",
                                  ":6: key 'k' is given twice, on lines 5 and 6"),
    "key_twice_on_one_line": (IRIS + "classifiers: [{name: KDB, k: 1, label: K, k: 2}]\n",
                              ":3: key 'k' is given twice, on line 3"),
    "key_twice_as_true_and_1": (IRIS + "classifiers: [NB]\npreprocess: {1: a, true: b}\n",
                                ":4: key True is given twice, on line 4"),
    # aliases: none at all, so no config expands beyond its text
    "billion_laughs": (BOMB, ":6: alias *a0: a config allows no aliases"),
    "alias": ("datasets: &d [iris]\nclassifiers: [NB]\ndescription: *d\n", ":3: alias *d"),
    "merge_key_alias": (IRIS + "base: &b {name: KDB, k: 2}\nclassifiers: [{<<: *b, label: K}]\n", ":4: alias *b"),
    "nested_5000_deep": (IRIS + "classifiers: [NB]\ndescription: " + "[" * 5000 + "]" * 5000 + "\n",
                         ":4: nested more than 20 levels deep"),
    # no Python object from a tag: safe loading refuses it before anything runs
    "python_tag": ("name: !!python/object/apply:os.system ['touch F']\n" + IRIS + "classifiers: [NB]\n",
                   ":1: malformed YAML: could not determine a constructor for the tag"),
    "python_name_tag": (IRIS + "classifiers: [{name: !!python/name:subprocess.Popen ''}]\n",
                        ":3: malformed YAML: could not determine a constructor for the tag"),
    # the experiment's name: one plain folder (results/<name>)
    "name_parent": ("name: ../../../somewhere\n" + IRIS + "classifiers: [NB]\n",
                    ":1: name: '../../../somewhere' holds a path separator"),
    "name_absolute": ("name: /tmp/somewhere\n" + IRIS + "classifiers: [NB]\n",
                      ":1: name: '/tmp/somewhere' holds a path separator"),
    "name_backslash": ("name: 'a\\b'\n" + IRIS + "classifiers: [NB]\n", ":1: name: 'a\\\\b' holds a path separator"),
    "name_dotdot": ("name: ..\n" + IRIS + "classifiers: [NB]\n", ":1: name: '..' starts with a dot"),
    "name_hidden": ("name: .x\n" + IRIS + "classifiers: [NB]\n", ":1: name: '.x' starts with a dot"),
    "name_empty": ("name: ''\n" + IRIS + "classifiers: [NB]\n", ":1: name: '' is empty"),
    "name_null": ("name:\n" + IRIS + "classifiers: [NB]\n", ":1: name: expected a plain folder name, got None"),
    "name_nul": ('name: "a\\0b"\n' + IRIS + "classifiers: [NB]\n", ":1: name: 'a\\x00b' holds a control character"),
    "name_300_chars": (f"name: {'x' * 300}\n" + IRIS + "classifiers: [NB]\n", "is longer than 100 bytes"),
    "name_a_list": ("name: [a, b]\n" + IRIS + "classifiers: [NB]\n", ":1: name: expected a plain folder name"),
    "name_a_store_file": ("name: results.sqlite\n" + IRIS + "classifiers: [NB]\n",
                          ":1: name: 'results.sqlite' ends in .sqlite"),
    # a classifier entry names a class with the classifier interface, checked before it is built
    "subprocess_popen": (IRIS + 'classifiers:\n  - {name: "subprocess:Popen", args: [touch, F]}\n',
                         ":4: classifiers.0.name: 'subprocess:Popen' is not a classifier: name a subclass of "
                         "bncbench.classifiers.BayesNetClassifier or a scikit-learn classifier"),
    "os_system": (IRIS + 'classifiers:\n  - {name: "os:system", command: "touch F"}\n',
                  ":4: classifiers.0.name: 'os:system' is not a class but a builtin_function_or_method"),
    "builtins_eval": (IRIS + 'classifiers: [{name: "builtins:eval", source: "open(\'F\', \'w\')"}]\n',
                      ":3: classifiers.0.name: 'builtins:eval' is not a class"),
    "pathlib_path": (IRIS + 'classifiers: [{name: "pathlib:Path"}]\n', "'pathlib:Path' is not a classifier"),
    "relative_module": (IRIS + 'classifiers: [{name: "..bncbench.classifiers:NB"}]\n',
                        ":3: classifiers.0.name: classifier '..bncbench.classifiers:NB' is not of the form "
                        "module.path:ClassName"),
    "module_path_with_slash": (IRIS + 'classifiers: [{name: "os/../subprocess:Popen"}]\n',
                               "is not of the form module.path:ClassName"),
    "two_colons": (IRIS + 'classifiers: [{name: "subprocess:Popen:x"}]\n', "is not of the form module.path:ClassName"),
    "estimator_without_fit": (IRIS + 'classifiers: [{name: "sklearn.base:BaseEstimator"}]\n',
                              "'sklearn.base:BaseEstimator' has no fit: a baseline needs a classifier with fit and "
                              "predict_proba"),
    "a_transformer": (IRIS + 'classifiers: [{name: "sklearn.preprocessing:StandardScaler"}]\n',
                      "'sklearn.preprocessing:StandardScaler' is a transformer, not a classifier"),
    "a_clusterer": (IRIS + 'classifiers: [{name: "sklearn.cluster:KMeans"}]\n', "is a clusterer, not a classifier"),
}


@pytest.fixture
def isolated_imports(monkeypatch):
    """A config's plug-in folder goes onto sys.path and PYTHONPATH (config.plugin_path): undone after
    the test, and no bytecode written beside a plug-in (the folder must hold only what the test put there)."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)


def _files(folder: Path) -> list[str]:
    """Every file and folder under `folder`, as paths relative to it."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _refused(code: int, err: str, where: str, words: str) -> str:
    """The one line of a refusal (exit code 2) that names `where` and holds `words`."""
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert where in lines[0] and words in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_bad_config_exit_2_one_line_nothing_written(tmp_path, monkeypatch, capsys, isolated_imports, case):
    """Run as a user does, from a folder three levels down (so ../../../somewhere would still land in
    tmp_path), without --results: results/<name> is the default."""
    text, words = BAD_CONFIGS[case]
    work = tmp_path / "a" / "b" / "c" / "work"
    work.mkdir(parents=True)
    cfg = work / f"{case}.yaml"
    cfg.write_text(text)
    monkeypatch.chdir(work)
    start = time.monotonic()
    code, _, err = bnc_codes("run", cfg.name)
    line_no, _, words = words.partition(": ") if words.startswith(":") else ("", "", words)
    _refused(code, err, f"{cfg.name}{line_no}", words)
    assert time.monotonic() - start < 10
    assert _files(tmp_path) == ["a", "a/b", "a/b/c", "a/b/c/work", f"a/b/c/work/{case}.yaml"]


def test_popen_entry_runs_nothing_from_the_command_line(tmp_path):
    """The issue's reproduction: before, `touch F` ran and then the entry failed ("has no fit")."""
    cfg = tmp_path / "popen.yaml"
    cfg.write_text('name: popen\ndatasets: [iris]\nclassifiers:\n  - {name: "subprocess:Popen", args: [touch, F]}\n')
    r = bnc("run", cfg, cwd=tmp_path)
    _refused(r.returncode, r.stderr, f"{cfg}:4: classifiers.0.name", "'subprocess:Popen' is not a classifier")
    assert _files(tmp_path) == ["popen.yaml"]


def test_billion_laughs_refused_in_bounded_time_and_memory(tmp_path):
    """The command under a 1 GiB address-space limit and a 60 s timeout (before: hung or 2.4 GB)."""
    cfg = tmp_path / "bomb.yaml"
    cfg.write_text(BOMB)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = dict(os.environ, BNCBENCH_MIRROR="")
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "r")],
                       capture_output=True, text=True, timeout=60, preexec_fn=limit, env=env)
    _refused(r.returncode, r.stderr, f"{cfg}:6", "alias *a0: a config allows no aliases (*name); write the value out")
    assert _files(tmp_path) == ["bomb.yaml"]


def test_parsing_a_bomb_or_a_deep_nest_allocates_little():
    for text in (BOMB, IRIS + "classifiers: [NB]\ndescription: " + "[" * 5000 + "]" * 5000 + "\n"):
        tracemalloc.start()
        try:
            with pytest.raises(UserError):
                config.parse(text, "c.yaml")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 5_000_000


def test_a_50_mb_config_is_not_read(tmp_path, monkeypatch, capsys):
    cfg = tmp_path / "huge.yaml"
    with cfg.open("w") as f:
        f.write("datasets: [iris]\nclassifiers: [NB]\n")
        f.write(("# " + "x" * 1022 + "\n") * (50 * 1024))
    tracemalloc.start()
    try:
        code, _, err = bnc_codes("run", cfg, "--results", tmp_path / "r")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    _refused(code, err, str(cfg), "larger than 256 KiB; a config is a short YAML file")
    assert peak < 5_000_000 and _files(tmp_path) == ["huge.yaml"]


def test_a_config_of_256_kib_is_read(tmp_path):
    cfg = tmp_path / "long.yaml"
    head = "datasets: [iris]\nclassifiers: [NB]\n"
    cfg.write_text(head + "#" * (config.MAX_CONFIG_BYTES - len(head) - 1) + "\n")
    assert config.load(str(cfg)).name == "long"


@pytest.mark.parametrize("data,words", [
    (bytes(range(256)) * 64, ":2: not UTF-8 text (byte 0x80); a config is a YAML text file"),  # 0x0a, then 0x80
    (b"datasets: [iris]\nclassifiers: [NB]\n\x89PNG\r\n\x1a\n\xff", ":3: not UTF-8 text (byte 0x89)"),
    (b"datasets: [iris]\n\x00\x01\x02\x03\n", ":2: malformed YAML: unacceptable character #x0000: special "
                                              "characters are not allowed"),
    (b"\xef\xbb\xbfdatasets: [iris]\r\nclassifiers: [NB]\r\nname: [\r\n", ":4: malformed YAML"),
], ids=["all_bytes", "png_after_yaml", "control_characters", "bom_crlf_unclosed"])
def test_a_binary_config(tmp_path, monkeypatch, capsys, data, words):
    cfg = tmp_path / "c.yaml"
    cfg.write_bytes(data)
    code, _, err = bnc_codes("run", cfg, "--results", tmp_path / "r")
    line_no, _, words = words.partition(": ")
    _refused(code, err, f"{cfg}{line_no}", words)
    assert _files(tmp_path) == ["c.yaml"]


@pytest.mark.parametrize("file,words", [
    ("..yaml", "'.', which starts with a dot"),
    (".hidden.yaml", "'.hidden', which starts with a dot"),
    ("x.sqlite.yaml", "'x.sqlite', which ends in .sqlite"),
])
def test_a_config_file_name_that_is_no_folder_name(tmp_path, monkeypatch, capsys, file, words):
    """Without `name:` the experiment's name is the config file's: held to the same rule."""
    cfg = tmp_path / file
    cfg.write_text(IRIS + "classifiers: [NB]\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = bnc_codes("run", file)
    line = _refused(code, err, f"{file}:1: the experiment's name is the config file's", words)
    assert "give a plain folder name with name:" in line and _files(tmp_path) == [file]


def test_names_that_are_plain_folders_are_kept():
    for name in ("results", "my experiment", "données", "CON", "x" * 100, "2024"):
        assert config.parse(f"name: {name}\n{IRIS}classifiers: [NB]\n", "c.yaml").name == name


# -- a plug-in's classes: checked as classes, never called before ---------------------------------
PLUGIN = '''
from pathlib import Path

from sklearn.base import BaseEstimator


class Duck:
    """fit and predict_proba, but neither a BayesNetClassifier nor a scikit-learn estimator."""

    def __init__(self, **params):
        Path("CONSTRUCTED").write_text("Duck")

    def fit(self, X, y):
        return self

    def predict_proba(self, X):
        return None


class NoProba(BaseEstimator):
    def __init__(self, k=1):
        Path("CONSTRUCTED").write_text("NoProba")

    def fit(self, X, y):
        return self


def make(**params):
    Path("CONSTRUCTED").write_text("make")


instance = NoProba.__new__(NoProba)
'''


@pytest.mark.parametrize("attr,words", [
    ("Duck", "is not a classifier: name a subclass of bncbench.classifiers.BayesNetClassifier"),
    ("NoProba", "has no predict_proba"),
    ("make", "is not a class but a function"),
    ("instance", "is not a class but a NoProba"),
])
def test_a_plugin_class_is_checked_before_it_is_built(tmp_path, monkeypatch, capsys, isolated_imports, attr, words):
    module = f"evil_{attr.lower()}"
    (tmp_path / f"{module}.py").write_text(PLUGIN)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"{IRIS}classifiers:\n  - {{name: '{module}:{attr}', k: 2}}\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = bnc_codes("run", "c.yaml")
    _refused(code, err, "c.yaml:4: classifiers.0.name", f"'{module}:{attr}' {words}")
    assert _files(tmp_path) == ["c.yaml", f"{module}.py"]  # no CONSTRUCTED, no results/


# -- empty selections -------------------------------------------------------------------------------
def _selecting_commands() -> list[tuple[list[str], str]]:
    """(the command's words, the option) for every command with --datasets or --classifiers."""
    import typer

    from bncbench.cli.app import app

    found = []

    def visit(cmd, words):
        for name, sub in getattr(cmd, "commands", {}).items():
            visit(sub, [*words, name])
        for p in getattr(cmd, "params", []):
            for opt in ("--datasets", "--classifiers"):
                if opt in getattr(p, "opts", []):
                    found.append((words, opt))

    visit(typer.main.get_command(app), [])
    return found


def test_every_selecting_command_is_found():
    commands = {(" ".join(w), opt) for w, opt in _selecting_commands()}
    assert {("run", "--datasets"), ("run", "--classifiers"), ("report", "--datasets"), ("wdl", "--classifiers"),
            ("bayes", "--datasets")} <= commands and len(commands) >= 10


@pytest.mark.parametrize("value", ["", " ", ",", " , ,"])
def test_an_empty_selection_is_refused_by_every_command(tmp_path, monkeypatch, capsys, value):
    """Before: an empty list meant every data set (with --fresh: everything computed again)."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(IRIS + "classifiers: [NB]\n")
    what = {"--datasets": "data set", "--classifiers": "classifier label"}
    for words, opt in _selecting_commands():
        positional = [cfg if words[0] == "run" else tmp_path / "r"] if words != ["compare"] else \
            [tmp_path / "r", tmp_path / "t.tsv"]
        code, _, err = bnc_codes(*words, *positional, opt, value)
        _refused(code, err, f"{opt}: {value!r} names no {what[opt]}", f"leave {opt} out for all")
    assert _files(tmp_path) == ["c.yaml"]


def test_run_fresh_with_no_data_set_recomputes_nothing(tmp_path, monkeypatch, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(IRIS + "classifiers: [NB]\n")
    code, _, err = bnc_codes("run", cfg, "--results", tmp_path / "r", "--quiet")
    assert code == 0, err
    store = tmp_path / "r" / "results.sqlite"
    before = hashlib.sha256(store.read_bytes()).hexdigest(), store.stat().st_mtime_ns
    code, _, err = bnc_codes("run", cfg, "--results", tmp_path / "r", "--fresh", "--datasets", "")
    _refused(code, err, "--datasets: '' names no data set", "leave --datasets out for all")
    assert (hashlib.sha256(store.read_bytes()).hexdigest(), store.stat().st_mtime_ns) == before


# -- folds: --runs, and data-set names as file names ------------------------------------------------
def _own_data(tmp_path: Path, names: list[str]) -> Path:
    """A config of data sets of one's own named `names` (the same small CSV), NB, 2 folds."""
    rows = ["a,b,class"] + [f"{i % 3},{'xy'[i % 2]},{'pq'[i // 2 % 2]}" for i in range(12)]
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "d.csv").write_text("\n".join(rows) + "\n")
    cfg = tmp_path / "c.yaml"
    entries = "".join(f"  - {{name: {n!r}, path: d.csv}}\n" for n in names)
    cfg.write_text(f"name: own\ndatasets:\n{entries}cv: {{folds: 2}}\nclassifiers: [NB]\n")
    return cfg


@pytest.mark.parametrize("runs", ["0", "-1"])
def test_folds_runs_below_1_refused(tmp_path, monkeypatch, capsys, runs):
    """Before: `folds --runs 0` succeeded writing nothing."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(IRIS + "classifiers: [NB]\n")
    code, _, err = bnc_codes("folds", cfg, "--dataset", "iris", "--out", tmp_path / "f",
                            "--runs", runs)
    _refused(code, err, f"--runs must be ≥ 1, got {runs}", "")
    assert _files(tmp_path) == ["c.yaml"]


def test_folds_of_a_data_set_named_dot_dot_stay_in_out(tmp_path, monkeypatch, capsys):
    """Before: a data set named ../../x was written above --out while the path given was printed;
    now each name has its own files in --out (a/b and a%2Fb too: the forms are injective)."""
    names = ["../../x", "a/b", "a%2Fb", ".", "CON"]
    cfg = _own_data(tmp_path / "deep" / "er", names)
    out = tmp_path / "deep" / "er" / "out"
    for name in names:
        code, _, err = bnc_codes("folds", cfg, "--dataset", name, "--out", out)
        assert code == 0 and err == f"wrote 4 ARFF files to {out}\n", err
    expected = sorted(f"{form}-r0-f{f}-{part}.arff" for form in ("%2E.%2F..%2Fx", "a%2Fb", "a%252Fb", "%2E", "%43ON")
                      for f in (0, 1) for part in ("train", "test"))
    assert _files(tmp_path) == ["deep", "deep/er", "deep/er/c.yaml", "deep/er/d.csv", "deep/er/out",
                                *(f"deep/er/out/{e}" for e in expected)]
    assert "@relation ../../x-r0-f0-train\n" in (out / "%2E.%2F..%2Fx-r0-f0-train.arff").read_text()


# -- figures and exports: labels and data-set names as file names -----------------------------------
HOSTILE_LABELS = IRIS.replace("[iris]", "[iris, zoo, car, labor-negotiations]") + """classifiers:
  - {name: NB, label: "../../evil"}
  - {name: NB, label: "a/b", m: 2}
  - {name: NB, label: nb, m: 3}
  - {name: NB, label: NB, m: 4}
  - {name: NB, label: ".", m: 5}
  - {name: NB, label: CON, m: 6}
  - {name: NB, label: "%s", m: 7}
figures: {bayes: {samples: 2000}}
""" % ("y" * 120)


@pytest.fixture(scope="module")
def labels_store(tmp_path_factory):
    return run_store(tmp_path_factory, "labels", HOSTILE_LABELS)


def test_figures_of_labels_with_slashes_stay_in_out(labels_store, tmp_path, monkeypatch, capsys):
    """Before: a label with / failed ("cannot write the figures") and ../ escaped --out."""
    from bncbench.utils.names import file_name

    out = tmp_path / "deep" / "er" / "out"
    code, _, err = bnc_codes("figures", labels_store, "--only", "bayes", "--format", "svg",
                            "--pairs", f"../../evil:a/b,a/b:NB,.:CON,{'y' * 120}:NB", "--out", out)
    assert code == 0, err
    long = file_name(f"bayes-{'y' * 120}-vs-NB") + ".svg"
    assert long.startswith("bayes-" + "y" * 77 + "~") and len(long) == 104
    files = ["bayes-..%2F..%2Fevil-vs-a%2Fb.svg", "bayes-a%2Fb-vs-NB.svg", "bayes-.-vs-CON.svg", long]
    assert err.strip().splitlines()[-1] == f"wrote 4 file(s) to {out}: {', '.join(files)}"
    assert _files(tmp_path) == ["deep", "deep/er", "deep/er/out", *sorted(f"deep/er/out/{f}" for f in files)]


def test_figures_that_one_case_blind_file_would_hold_are_refused(labels_store, tmp_path, monkeypatch, capsys):
    code, _, err = bnc_codes("figures", labels_store, "--only", "bayes", "--format", "svg",
                            "--pairs", "nb:a/b,NB:a/b", "--out", tmp_path / "out")
    _refused(code, err, "figures 'bayes-nb-vs-a/b' and 'bayes-NB-vs-a/b' would be one file where case is ignored",
             "bayes-NB-vs-a%2Fb.svg; draw one of them into another --out folder")
    assert _files(tmp_path) == []


def test_export_of_hostile_data_set_names_stays_in_out(tmp_path, monkeypatch, capsys):
    names = ["../../x", "a/b", "a%2Fb", "x" * 300]
    cfg = _own_data(tmp_path, names)
    code, _, err = bnc_codes("run", cfg, "--results", tmp_path / "r", "--quiet")
    assert code == 0, err
    out = tmp_path / "deep" / "er" / "out"
    code, _, err = bnc_codes("export", tmp_path / "r", "--format", "csv", "--predictions",
                            "--out", out)
    assert code == 0 and "wrote 5 file(s)" in err, err
    from bncbench.utils.names import file_name

    long = f"predictions-{file_name('x' * 300)}.csv"
    assert long.startswith("predictions-" + "x" * 83 + "~") and len(long) < 255
    assert _files(tmp_path / "deep") == ["er", "er/out", *sorted(
        f"er/out/{f}" for f in ("predictions-%2E.%2F..%2Fx.csv", "predictions-a%2Fb.csv", "predictions-a%252Fb.csv",
                                long, "tasks.csv"))]


def test_export_of_names_one_case_blind_file_would_hold_is_refused(tmp_path, monkeypatch, capsys):
    cfg = _own_data(tmp_path, ["Data", "data"])
    code, _, err = bnc_codes("run", cfg, "--results", tmp_path / "r", "--quiet")
    assert code == 0, err
    code, _, err = bnc_codes("export", tmp_path / "r", "--predictions", "--out", tmp_path / "out")
    _refused(code, err, "data sets 'Data' and 'data' would be one file where case is ignored (macOS, Windows): "
                        "predictions-data.parquet", "")
    assert not (tmp_path / "out").exists()
