"""Tests of bncbench/cli."""
