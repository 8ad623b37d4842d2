"""Tests of bncbench/preprocess."""
