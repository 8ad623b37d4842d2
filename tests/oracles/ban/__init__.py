"""Oracles of the `ban` family: BAN (hill climbing, TPDA with the X² test) and k-BAN."""
