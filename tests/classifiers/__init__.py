"""Tests of bncbench/classifiers, one folder per family as in the package."""
