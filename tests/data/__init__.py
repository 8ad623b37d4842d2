"""Tests of bncbench/data."""
