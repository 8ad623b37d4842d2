"""Oracles of the `ait` family: AIT."""
