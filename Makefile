# bncbench — `make run` sets everything up and runs the default experiment; `make test` runs the suite;
# `make lint` runs ruff and mypy (their settings: pyproject.toml).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Paper targets use every core (make stan70 JOBS=1 for one); OMP_NUM_THREADS, which nproc would
# honour, limits threads per process, not the number of worker processes.
JOBS ?= $(shell env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1)
# Data: bncbench itself searches BNCBENCH_MIRROR, else ../shared/uci beside this checkout (docs/cli.md: Data and cache folders).

.PHONY: run test test-boundscheck lint lineage mutants bench stan70 ait36 aode22 kban clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m bncbench run configs/default.yaml --results results/default
	$(PY) -m bncbench report results/default --metric zol
	$(PY) -m bncbench report results/default --metric rmse
	$(PY) -m bncbench wdl results/default --metric zol
	$(PY) -m bncbench figures results/default --out results/default/figures
	$(PY) -m bncbench report results/default --format html --out results/default/report.html
	@echo "Figures of the default experiment: results/default/figures/"
	@echo "HTML report of the default experiment: results/default/report.html"
	@echo "The bncbench command is $(VENV)/bin/bncbench; put it on the PATH with:  . $(VENV)/bin/activate"

test: $(VENV)/.installed
	$(PY) -m pytest -q

# BAN's compiled kernels with numba's bounds checks (docs/testing.md: Bounds checks), compiled into
# a numba cache of their own: numba's cache key leaves the flag out, so the checked and unchecked
# builds must not share one
test-boundscheck: $(VENV)/.installed
	cache=$$(mktemp -d) && NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$$cache $(PY) -m pytest -q \
	  tests/classifiers/ban/test_x2_kernels.py tests/classifiers/ban/test_x2_independence.py; \
	  status=$$?; rm -rf "$$cache"; exit $$status

lint: $(VENV)/.installed
	$(PY) -m ruff check bncbench tests
	$(PY) -m mypy

# The code lineage record after a pure refactor (docs/architecture.md: Code lineage): the fingerprint
# inputs of commit REV, the last one before the refactor, and of this checkout. make lineage REV=70ae138
lineage: $(VENV)/.installed
	$(PY) -m bncbench.engine.lineage record $(REV)

# The mutation check (docs/testing.md): each deliberate bug of tools/mutants.yaml applied to a
# temporary copy, the fast suite run there without the mirror. make mutants MUTANTS="--only ID --area-only"
mutants: $(VENV)/.installed
	$(PY) tools/mutants.py $(MUTANTS)

bench: $(VENV)/.installed
	$(PY) bench/bench_core.py adult
	for grid in adult4 synth1m donation-shape; do \
	  /usr/bin/time -f "$$grid: wall %e s, peak RSS %M KB" \
	    $(PY) -m bncbench run bench/configs/$$grid.yaml --results results/bench-$$grid --fresh --quiet; done
	$(PY) bench/bench_executors.py
	$(PY) bench/bench_weka.py adult
	$(PY) bench/bench_synth.py
	$(PY) bench/bench_times.py bench/configs/ait-times.yaml \
	  --target letter-recog:SKDB/KDB\<=10 --target adult:TAN-AIT/TAN\<=4 --target adult:KDB-AIT/KDB\<=4
	$(PY) bench/bench_times.py bench/configs/aode-times.yaml \
	  --target adult:SR/AODE\<=2 --target adult:NSR/AODE\<=2 --target adult:SP+RC/AODE\<=10 \
	  --target adult:PAA/AODE\<=10 --target adult:CAA/AODE\<=10 --target adult:PAE/AODE\<=10 --target adult:CAE/AODE\<=10

stan70: $(VENV)/.installed
	$(PY) -m bncbench run configs/stan70.yaml --results results/stan70 --jobs $(JOBS)
	$(PY) -m bncbench report results/stan70 --metric zol
	$(PY) -m bncbench report results/stan70 --metric rmse
	$(PY) -m bncbench report results/stan70 --metric selected
	@echo "Table 2 (STAN variants against TAN):"
	$(PY) -m bncbench wdl results/stan70 --metric zol --rows STAN-MI,STAN-SU,STAN-JMI,STAN-CMIM,STAN-MRMR --columns TAN
	$(PY) -m bncbench wdl results/stan70 --metric rmse --rows STAN-MI,STAN-SU,STAN-JMI,STAN-CMIM,STAN-MRMR --columns TAN
	@echo "Table 3 (STAN-MRMR against AODE and KDB1):"
	$(PY) -m bncbench wdl results/stan70 --metric zol --rows STAN-MRMR --columns AODE,KDB1
	$(PY) -m bncbench wdl results/stan70 --metric rmse --rows STAN-MRMR --columns AODE,KDB1
	@echo "Paper 000's printed dev values (papers/stan70/dev.tsv) beside ours:"
	$(PY) -m bncbench compare results/stan70 papers/stan70/dev.tsv
	$(PY) -m bncbench figures results/stan70 --out results/stan70/figures
	$(PY) -m bncbench report results/stan70 --format html --out results/stan70/report.html --compare papers/stan70/dev.tsv

ait36: $(VENV)/.installed
	$(PY) -m bncbench run configs/ait36.yaml --results results/ait36 --jobs $(JOBS)
	$(PY) -m bncbench run configs/ait36-bv.yaml --results results/ait36-bv --jobs $(JOBS)
	@echo "Table A1 (zero-one loss):"
	$(PY) -m bncbench report results/ait36 --metric zol
	@echo "Table A2 (bias, bias-variance experiment):"
	$(PY) -m bncbench report results/ait36-bv --metric bias
	@echo "Table A3 (variance, bias-variance experiment):"
	$(PY) -m bncbench report results/ait36-bv --metric variance
	@echo "Table A4 (RMSE; the SKDB and IWAODE columns are the all-class RMSE, as printed):"
	$(PY) -m bncbench report results/ait36 --metric rmse --label-metric SKDB=rmse_all,IWAODE=rmse_all
	@echo "Tables 2-4 (W/D/L in ZOL, bias, variance; relative 5 % band, one-tailed sign test, draws ignored):"
	$(PY) -m bncbench wdl results/ait36 --metric zol
	$(PY) -m bncbench wdl results/ait36-bv --metric bias
	$(PY) -m bncbench wdl results/ait36-bv --metric variance
	@echo "Fig. 7 (rCLL):"
	$(PY) -m bncbench rcll results/ait36 --pairs TAN-AIT:TAN,KDB-AIT:KDB
	@echo "Fig. 3 (goal difference in ZOL):"
	$(PY) -m bncbench gd results/ait36 --pairs TAN-AIT:TAN,KDB-AIT:KDB
	@echo "Fig. 8 (training and classification time per fold, seconds; mean row = the figure's bars):"
	$(PY) -m bncbench report results/ait36 --metric train_time
	$(PY) -m bncbench report results/ait36 --metric test_time
	@echo "The paper's claims beside our runs:"
	$(PY) -m bncbench claims papers/ait36/claims.yaml
	@echo "Paper 004's printed dev values (papers/ait36/dev.tsv) beside ours:"
	$(PY) -m bncbench compare results/ait36 papers/ait36/dev.tsv --metric zol,rmse,rmse_all
	$(PY) -m bncbench compare results/ait36-bv papers/ait36/dev.tsv --metric bias,variance
	$(PY) -m bncbench figures results/ait36 --out results/ait36/figures
	$(PY) -m bncbench figures results/ait36-bv --out results/ait36-bv/figures
	$(PY) -m bncbench report results/ait36 --format html --out results/ait36/report.html --compare papers/ait36/dev.tsv --claims papers/ait36/claims.yaml
	$(PY) -m bncbench report results/ait36-bv --format html --out results/ait36-bv/report.html

aode22: $(VENV)/.installed
	$(PY) -m bncbench run configs/aode22.yaml --results results/aode22 --jobs $(JOBS)
	$(PY) -m bncbench run configs/aode22-large.yaml --results results/aode22-large --jobs $(JOBS)
	@echo "Table 3 (zero-one loss, 50 x 2-fold CV):"
	$(PY) -m bncbench report results/aode22 --metric zol
	@echo "Table 4 (bias):"
	$(PY) -m bncbench report results/aode22 --metric bias
	@echo "Table 5 (variance):"
	$(PY) -m bncbench report results/aode22 --metric variance
	@echo "Table 6 (variance of SP+RC with and without the canonical cover, large data sets):"
	$(PY) -m bncbench report results/aode22-large --metric variance
	@echo "Table 7 (attribute-level elimination ratio):"
	$(PY) -m bncbench report results/aode22 --metric elimination --classifiers SP,PAA,PAE
	@echo "Table 8 (instance-level elimination ratio):"
	$(PY) -m bncbench report results/aode22 --metric elimination --classifiers SP+RC,CAA,CAE,SR
	@echo "W/D/L (two-tailed sign test, draws ignored) in ZOL, bias, variance:"
	$(PY) -m bncbench wdl results/aode22 --metric zol
	$(PY) -m bncbench wdl results/aode22 --metric bias
	$(PY) -m bncbench wdl results/aode22 --metric variance
	@echo "The paper's claims beside our runs:"
	$(PY) -m bncbench claims papers/aode22/claims.yaml
	$(PY) -m bncbench figures results/aode22 --out results/aode22/figures
	$(PY) -m bncbench report results/aode22 --format html --out results/aode22/report.html --claims papers/aode22/claims.yaml

kban: $(VENV)/.installed
	$(PY) -m bncbench run configs/kban.yaml --results results/kban --jobs $(JOBS)
	@echo "Accuracy (%, mean +- sd over the 20 runs of 10-fold CV):"
	$(PY) -m bncbench report results/kban --metric accuracy
	@echo "W/D/L in accuracy (two-tailed sign test, draws ignored):"
	$(PY) -m bncbench wdl results/kban --metric accuracy
	@echo "The paper's claims beside our runs:"
	$(PY) -m bncbench claims papers/kban/claims.yaml
	$(PY) -m bncbench figures results/kban --out results/kban/figures
	$(PY) -m bncbench report results/kban --format html --out results/kban/report.html --claims papers/kban/claims.yaml

clean:
	rm -rf $(VENV) results build *.egg-info
