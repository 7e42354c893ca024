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


def test_later_reads_agree_with_vmhwm_and_never_fall() -> None:
    # After the first read, getrusage stands in for /proc/self/status: check it against the
    # file's figure across an allocation, in a fresh interpreter.
    code = """
import numpy as np
from searchvid import memory
first = memory.peak_rss_mb()
block = np.ones(48 * 1024 * 1024, dtype=np.uint8)
later = memory.peak_rss_mb()
print(memory._exact_maxrss[0] >= 0, first, later, memory._vm_hwm_kb() / 1024)
"""
    # Started from a small interpreter (a child inherits its parent's mark, and pytest's is
    # large), as a shell starts `searchvid run`.
    launch = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {code!r}])"
    child = subprocess.run([sys.executable, "-c", launch], capture_output=True, text=True)
    cheap, first, later, hwm = child.stdout.split()
    assert cheap == "True"  # a plain interpreter inherits no larger mark
    assert float(first) <= float(later)
    assert abs(float(later) - float(hwm)) < 1  # within the kernel's lazy settling


def test_a_child_of_a_large_parent_keeps_reading_vmhwm() -> None:
    block = np.ones(300 * 1024 * 1024, dtype=np.uint8)
    code = (
        "from searchvid import memory; memory.peak_rss_mb(); "
        "print(memory._exact_maxrss[0], memory.peak_rss_mb())"
    )
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    del block
    marker, peak = child.stdout.split()
    assert marker == "-1"  # ru_maxrss carries the parent's mark: /proc/self/status is read
    assert float(peak) < 150, child.stdout
