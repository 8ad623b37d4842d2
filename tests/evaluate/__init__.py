"""Tests of bncbench/evaluate."""
