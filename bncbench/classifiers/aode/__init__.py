"""Averaged one-dependence estimators and paper 003's AODE family: the SPODE block scoring they
share (`spode`), AODE, TAODE, IWAODE, SP (`sp`), RC and SP+RC (`rc`, over the functional
dependencies of `fds`), the leave-one-out wrappers PAA/CAA/PAE/CAE (`wrappers`, over the
leave-one-out engine of `loo_engine`) and subsumption resolution SR/NSR (`subsumption`)."""
