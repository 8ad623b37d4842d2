"""The command-line interface: a thin layer over the library, one module per group of commands.

`app` registers the commands and `main` is the entry point (pyproject: bncbench.cli:main);
`common` holds what the commands share. Command modules import the library lazily, inside the
commands, so `import bncbench.cli` stays light (no matplotlib, pandas or scikit-learn).
"""

from bncbench.cli.app import app, main

__all__ = ["app", "main"]
