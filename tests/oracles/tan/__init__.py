"""Oracles of the `tan` family: TAN and STAN (its LOO risks and rankings)."""
