"""A sweep on a real Dask cluster: ``dask scheduler`` and ``dask worker`` on the loopback."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sweep_helpers import SCENE, invoke

pytest.importorskip("distributed")

# Starting a scheduler and a worker takes 7 to 16 s on the 2-core machine: more than `make
# test` can spend, so these run in `make test-integration`.
pytestmark = pytest.mark.integration

START_SECONDS = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def dask_command() -> list[str]:
    found = shutil.which("dask", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "distributed.cli.dask_spec"]


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    """A scheduler and one worker of one thread, stopped at the end whatever happens."""
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path}
    started: list[subprocess.Popen[bytes]] = []
    try:
        started.append(
            subprocess.Popen(
                [
                    *dask_command(),
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--dashboard-address",
                    "127.0.0.1:0",
                ],
                **quiet,
            )
        )
        started.append(
            subprocess.Popen(
                [
                    *dask_command(),
                    "worker",
                    address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--host",
                    "127.0.0.1",
                    "--dashboard-address",
                    "127.0.0.1:0",
                ],
                **quiet,
            )
        )
        deadline = time.monotonic() + START_SECONDS
        with Client(address, timeout=f"{START_SECONDS}s") as client:
            client.wait_for_workers(1, timeout=max(1.0, deadline - time.monotonic()))
        yield address
    finally:
        for process in reversed(started):
            stop(process)


def test_a_sweep_through_a_running_scheduler(cluster: str, tmp_path: Path) -> None:
    serial = tmp_path / "serial"
    args = ["--seeds", "0..3", "--set", "search.restarts=1,2", "-q"]
    assert invoke("sweep", SCENE, *args, "-o", str(serial), "-j", "1").exit_code == 0
    remote = tmp_path / "remote"
    result = invoke("sweep", SCENE, *args, "-o", str(remote), "--scheduler", cluster)
    assert result.exit_code == 0, result.output
    assert (remote / "runs.csv").read_bytes() == (serial / "runs.csv").read_bytes()
    assert (remote / "timings.csv").read_text().count("\n") == 9  # the header and 8 runs


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    result = invoke(
        "sweep", SCENE, "--seeds", "0", "-o", str(tmp_path / "out"), "--scheduler", address
    )
    assert result.exit_code == 1
    assert result.stderr == f"Error: --scheduler {address}: cannot connect: Connection refused\n"


def test_ctrl_c_stops_a_local_cluster_with_one_line(tmp_path: Path) -> None:
    """Ctrl-C at a terminal reaches the whole process group, the cluster's workers too."""
    folder = tmp_path / "out"
    command = [sys.executable, "-m", "searchvid", "sweep", "railroad-game-mcts", "--seeds",
               "0..199", "--set", "search.iterations=10", "-o", str(folder),
               "--scheduler", "local", "-j", "2", "-q"]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 90
        runs = folder / "runs.csv"
        while not (runs.exists() and runs.read_text(encoding="utf-8").count("\n") >= 3):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no row was written in 90 s"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert (process.returncode, out, err) == (130, "", "Error: interrupted (SIGINT)\n")
    assert (folder / "runs.csv").read_text(encoding="utf-8").count("\n") >= 3
