"""Peak memory of the running process (``run --json`` and the benchmarks report it)."""

from __future__ import annotations

import sys
from pathlib import Path

_STATUS = Path("/proc/self/status")
_exact_maxrss: list[int] = []
"""Empty until the first Linux read; then ``[VmHWM]`` of that read (kB) when ``ru_maxrss``
carries no inherited mark, else ``[-1]``."""


def peak_rss_mb() -> float | None:
    """Peak resident memory of this process in MB, or None where it cannot be read.

    On Linux this is ``VmHWM`` from ``/proc/self/status``: unlike ``getrusage``'s
    ``ru_maxrss``, it starts afresh at ``exec``, so a child started by a large parent does not
    inherit the parent's high-water mark (the kernel settles it lazily, so it may move by a
    few pages; large blocks, freed with ``munmap``, are always counted). Elsewhere
    ``ru_maxrss`` is used.

    Reading ``/proc/self/status`` costs about 0.1 ms (the kernel writes the whole file), a
    tenth of a small search's ``run``. ``ru_maxrss`` is the larger of the mark inherited at
    ``exec`` and this process's own mark, and both only grow; so once one read finds
    ``ru_maxrss`` no larger than ``VmHWM``, nothing inherited shows in it for good, and the
    cheap ``getrusage`` call is used from then on. Its own mark lags ``VmHWM`` by a few pages
    (the kernel folds the current size into it lazily), within the settling noted above.
    """
    rusage = _maxrss_kb()
    if _exact_maxrss and _exact_maxrss[0] >= 0 and rusage is not None:
        return _mb(max(rusage, _exact_maxrss[0]))  # never below a figure already given
    hwm = _vm_hwm_kb()
    if hwm is None:
        return None if rusage is None else _mb(rusage)
    if not _exact_maxrss:
        _exact_maxrss.append(hwm if rusage is not None and rusage <= hwm else -1)
    return _mb(hwm)


def _vm_hwm_kb() -> int | None:
    """``VmHWM`` in kB, or None where ``/proc/self/status`` does not give it."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def _maxrss_kb() -> int | None:
    """``ru_maxrss`` in kB, or None where ``resource`` does not exist (not POSIX)."""
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # macOS counts bytes


def _mb(kb: int) -> float:
    return round(kb / 1024, 1)
