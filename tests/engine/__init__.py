"""Tests of bncbench/engine."""
