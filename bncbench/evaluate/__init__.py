"""Measures computed from stored predictions, statistics over data sets, and table formatting."""
