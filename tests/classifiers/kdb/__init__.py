"""Tests of bncbench/classifiers/kdb."""
