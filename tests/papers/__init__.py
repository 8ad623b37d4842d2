"""Tests of the papers' configs and published values (papers/, configs/)."""
