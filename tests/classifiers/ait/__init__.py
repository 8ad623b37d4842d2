"""Tests of bncbench/classifiers/ait."""
