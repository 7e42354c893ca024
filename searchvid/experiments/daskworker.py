"""A Dask worker preload (``preload=["searchvid.experiments.daskworker"]``) for the
LocalCluster of ``searchvid sweep --scheduler local``.

Ctrl-C at a terminal reaches every process of its group, the cluster's workers included:
without this, each would print a traceback of its own before the sweep's one
``Error: interrupted`` line. The sweep's process alone decides what Ctrl-C means (it stops
the cluster).
"""

from __future__ import annotations

import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    """Called by Dask in each worker process as it starts: Ctrl-C is ignored there."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
