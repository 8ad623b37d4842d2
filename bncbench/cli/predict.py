"""`bncbench predict`: a model file applied to the rows of an ARFF or CSV file (docs/models.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bncbench.cli.common import out_option, write_text
from bncbench.errors import UserError


def predict(model: Annotated[str, typer.Argument(metavar="MODEL", help="model file (bncbench fit)")],
            data: Annotated[str, typer.Argument(metavar="DATA", help="ARFF, CSV or TSV file of the model's "
                                                                     "attribute columns")],
            out: Annotated[str | None, out_option("FILE", "write the CSV here [default: standard output]")] = None):
    """Class probabilities of new rows from a fitted model, as CSV.

    DATA's columns are found by the attribute names of the model's data set
    (others, such as the class, are ignored); the stored preprocessing codes
    them, an undeclared value or a missing cell following the model's `missing`
    rule. One row per input row: a column P(<class>) per class, then
    `predicted`, the most probable class.

    \b
    Example:
      bncbench predict models/car-TAN.bncmodel new-cars.csv --out predictions.csv
    """
    import csv
    import io

    import numpy as np

    from bncbench.models import fitting, rows

    for given, what in ((model, "MODEL"), (data, "DATA")):
        if out is not None and Path(out).exists() and Path(given).exists() and Path(out).samefile(given):
            raise UserError(f"--out {out}: is the {what} file; writing there would replace it: give another file name")
    m = fitting.load(model)
    table, markers = rows.read_table(data)
    X = rows.codes(m.preprocessing, table, markers, data)
    classes = m.preprocessing.classes
    proba = fitting.probabilities(m, X, model)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*(f"P({c})" for c in classes), "predicted"])
    best = np.argmax(proba, axis=1) if proba.shape[0] else np.empty(0, dtype=np.int64)
    w.writerows([*p, classes[b]] for p, b in zip(proba.tolist(), best.tolist()))
    write_text(buf.getvalue(), out)
