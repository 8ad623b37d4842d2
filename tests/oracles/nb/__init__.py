"""Oracles of the `nb` family: NB and CFWNB."""
