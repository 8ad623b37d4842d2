"""Oracles of the `kdb` family: KDB, FKDB and SKDB."""
