"""Tests of bncbench/classifiers/aode."""
