"""k-dependence Bayesian classifiers: KDB (`kdb`), FKDB (`fkdb`) and selective KDB (`skdb`)."""
