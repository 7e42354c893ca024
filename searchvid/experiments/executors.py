"""Where a sweep's runs go: this process, a local process pool, or a Dask cluster.

All of them are ``concurrent.futures.Executor``\\ s (Dask's through
``Client.get_executor()``), so :func:`searchvid.sweep`'s ``executor=`` and the command line
share one code path. Dask (``pip install 'searchvid[dask]'``) is imported only here, and
only for ``--scheduler``.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import socket
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from searchvid.errors import RunError, UsageError
from searchvid.experiments.worker import ignore_interrupts

_STOP_SECONDS = 2.0
"""How long a stopped sweep waits for its workers to end before it moves on."""

DASK_MISSING = "--scheduler needs Dask: pip install 'searchvid[dask]'"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def open_executor(*, jobs: int | None, scheduler: str | None) -> Iterator[Executor | None]:
    """The executor of ``--jobs`` and ``--scheduler`` (None: run in this process).

    Args:
        jobs: Worker processes (default: every core); 1 without ``scheduler`` runs the
            sweep in this process.
        scheduler: ``local`` (a Dask LocalCluster of ``jobs`` processes) or a Dask
            scheduler's address, ``tcp://HOST:PORT``.

    On the way out after an error or a signal, queued runs are cancelled and the workers
    stopped (a pool's processes are killed: a run can take minutes).

    Raises:
        UsageError: ``scheduler`` without Dask installed, or not an address.
        RunError: The scheduler cannot be reached.
    """
    if scheduler is None:
        count = jobs or cores()
        if count == 1:
            yield None
            return
        pool = ProcessPoolExecutor(count, initializer=ignore_interrupts)
        try:
            yield pool
        except BaseException:
            _kill_pool(pool)
            raise
        pool.shutdown(wait=True)
        return
    with _dask_executor(scheduler, jobs) as executor:
        yield executor


def _kill_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: queued runs cancelled, running ones killed."""
    # The pool has no public way to stop a running call; its processes are its own (read
    # before shutdown, which forgets them).
    processes: dict[int, Any] = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.kill()
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.join(_STOP_SECONDS)


@contextlib.contextmanager
def _dask_executor(scheduler: str, jobs: int | None) -> Iterator[Executor]:
    try:  # untyped: its names are Any here
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise UsageError(DASK_MISSING) from None
    Client, LocalCluster = distributed.Client, distributed.LocalCluster  # noqa: N806
    if scheduler != "local" and not scheduler.startswith(("tcp://", "tls://", "inproc://")):
        raise UsageError(f"--scheduler {scheduler!r}: write local or tcp://HOST:PORT")
    for name in ("distributed", "tornado", "asyncio"):  # its INFO lines are not ours to show
        logging.getLogger(name).setLevel(logging.ERROR)
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            cluster = LocalCluster(
                n_workers=jobs or cores(),
                threads_per_worker=1,
                processes=True,
                # The scheduler serves HTTP even without a dashboard: on a free local port,
                # never the default 8787 that another cluster may hold.
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.CRITICAL,  # a worker's last words at shutdown, too
                preload=["searchvid.experiments.daskworker"],  # Ctrl-C is the sweep's alone
            )
            stack.callback(_quietly, cluster.close)
            client = Client(cluster)
        else:
            _reachable(scheduler)
            try:
                client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError) as error:
                raise RunError(f"--scheduler {scheduler}: cannot connect: {error}") from None
        stack.callback(_quietly, client.close)
        executor = client.get_executor(pure=False)
        yield executor


def _reachable(scheduler: str) -> None:
    """Refuse at once an address where nothing listens (Dask's client would retry for its
    whole timeout before saying so)."""
    host, _, port = scheduler.partition("://")[2].rpartition(":")
    if not port.isdigit():
        raise UsageError(f"--scheduler {scheduler}: write tcp://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise RunError(f"--scheduler {scheduler}: cannot connect: {reason}") from None


def _quietly(close: Any) -> None:
    with contextlib.suppress(Exception):
        close()
