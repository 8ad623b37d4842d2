"""Kernels that two or more classifier families share (docs/architecture.md)."""
