"""Tests of bncbench/utils."""
