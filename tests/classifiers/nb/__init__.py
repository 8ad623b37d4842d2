"""Tests of bncbench/classifiers/nb."""
