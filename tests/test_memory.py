"""Peak memory as reported by ``run --json`` and the benchmarks."""

from __future__ import annotations

import subprocess
import sys

import numpy as np


def test_peak_grows_with_an_allocation_and_stays_after_it_is_freed() -> None:
    # In a fresh interpreter, so no earlier test's peak hides the allocation.
    code = """
import numpy as np
from searchvid.memory import peak_rss_mb
before = peak_rss_mb()
block = np.ones(64 * 1024 * 1024, dtype=np.uint8)  # 64 MB, touched
after = peak_rss_mb()
del block
print(before, after, peak_rss_mb())
"""
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    before, after, freed = (float(x) for x in child.stdout.split())
    assert before > 0
    assert after >= before + 60
    # Freeing a large block does not lower the peak (Linux may settle it by a few pages).
    assert freed >= after - 1


def test_a_child_does_not_inherit_its_parents_peak() -> None:
    block = np.ones(300 * 1024 * 1024, dtype=np.uint8)  # this process peaks above 300 MB
    code = "from searchvid.memory import peak_rss_mb; print(peak_rss_mb())"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    del block
    assert float(child.stdout) < 150, child.stdout
