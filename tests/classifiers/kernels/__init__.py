"""Tests of bncbench/classifiers/kernels."""
