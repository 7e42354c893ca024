"""Peak memory of the running process (``run --json`` and the benchmarks report it)."""

from __future__ import annotations

import sys
from pathlib import Path


def peak_rss_mb() -> float | None:
    """Peak resident memory of this process in MB, or None where it cannot be read.

    On Linux this is ``VmHWM`` from ``/proc/self/status``: unlike ``getrusage``'s
    ``ru_maxrss``, it starts afresh at ``exec``, so a child started by a large parent does not
    inherit the parent's high-water mark (the kernel settles it lazily, so it may move by a
    few pages; large blocks, freed with ``munmap``, are always counted). Elsewhere
    ``ru_maxrss`` is used.
    """
    status = Path("/proc/self/status")
    try:
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)  # the figure is in kB
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # not on POSIX
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    per_mb = 1024 * 1024 if sys.platform == "darwin" else 1024  # macOS counts bytes
    return round(peak / per_mb, 1)
