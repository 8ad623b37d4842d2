"""Tests of bncbench/classifiers/ban."""
