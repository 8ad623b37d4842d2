"""Oracles of the `aode` family: AODE and paper 003's family (SP, RC, TAODE, IWAODE, wrappers, subsumption)."""
