"""Tests of bncbench/classifiers/tan."""
