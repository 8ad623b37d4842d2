"""BAN-MDL's entropy terms with their configurations numbered by a compiled kernel (docs/algorithms.md
§4.7): `EntropyTerms` whose `extend` is `entropy_kernels.number_extension`. Imported only where BAN fits."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.ban.entropy_kernels import number_extension
from bncbench.classifiers.ban.entropy_terms import EntropyTerms


class CompiledTerms(EntropyTerms):
    """`EntropyTerms` whose configurations are numbered by the compiled `number_extension`: the
    same rows and numbers as `EntropyTerms.extend` (BAN-MDL's search numbers many sets)."""

    def extend(self, groups: tuple[np.ndarray, np.ndarray, int], a: int) -> tuple[np.ndarray, np.ndarray, int]:
        rows, prev, g = groups
        r = int(self.sizes[a])
        m = rows.shape[0]
        rows_out = np.empty(m, dtype=rows.dtype)
        ids_out = np.empty(m, dtype=np.int64)
        kept, g_out = number_extension(rows, prev, g, self._cols[a], r, np.zeros(g * r, dtype=np.int64), rows_out,
                                       ids_out)
        return rows_out[:kept].copy(), ids_out[:kept].copy(), g_out
