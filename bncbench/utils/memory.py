"""The memory this machine has available for new allocations, and byte counts in words."""

from __future__ import annotations

import os
import re

#: the environment variable that sets the memory to count on, in place of what the system reports
ENV = "BNCBENCH_MEMORY"
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_NAMES = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def available() -> tuple[int, str] | None:
    """(bytes, where the number comes from) of the memory available for new allocations:
    BNCBENCH_MEMORY if set (bytes, or a number with K, M, G or T: binary units), else
    /proc/meminfo's MemAvailable (Linux: free memory plus the caches the kernel can drop), else the
    free physical pages os.sysconf reports; None where nothing tells. ValueError for a
    BNCBENCH_MEMORY that is not a size."""
    value = os.environ.get(ENV, "").strip()
    if value:
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?", value, re.IGNORECASE)
        if m is None:
            raise ValueError(f"{ENV}={value!r}: give the memory to count on in bytes, or with K, M, G or T "
                             f"(e.g. 8G)")
        return int(float(m.group(1)) * _UNITS[m.group(2).upper()]), ENV
    try:
        with open("/proc/meminfo", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key == "MemAvailable" and rest.split() and rest.split()[0].isdigit():
                    return int(rest.split()[0]) * 1024, "MemAvailable"
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"), "free physical memory"
    except (ValueError, OSError, AttributeError):  # a name this system does not know
        return None


def size(n: float) -> str:
    """A byte count in binary units at three significant digits: '512 B', '31.4 GiB', '21.8 TiB'."""
    value, unit = float(n), 0
    while abs(value) >= 1024 and unit < len(_NAMES) - 1:
        value, unit = value / 1024, unit + 1
    if unit == 0:
        return f"{int(value)} B"
    return f"{value:.3g} {_NAMES[unit]}" if value < 1000 else f"{value:.0f} {_NAMES[unit]}"
