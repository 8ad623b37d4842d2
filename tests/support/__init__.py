"""Helpers the tests share (small data generators, running the CLI)."""
