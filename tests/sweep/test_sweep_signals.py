"""A sweep stopped by Ctrl-C keeps its finished rows, says one line and exits 130."""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sweep_helpers import run_json_cells

SCENE = "railroad-game-mcts"
SETTING = "search.iterations=10"  # about 0.2 s a run


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_finished_rows(tmp_path: Path, jobs: str) -> None:
    folder = tmp_path / "out"
    runs = folder / "runs.csv"
    command = [
        sys.executable,
        "-m",
        "searchvid",
        "sweep",
        SCENE,
        "--seeds",
        "0..199",
        "--set",
        SETTING,
        "-o",
        str(folder),
        "-j",
        jobs,
        "-q",
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"CI": "1"},
    )
    try:
        deadline = time.monotonic() + 60
        while not (runs.exists() and runs.read_text(encoding="utf-8").count("\n") >= 3):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no row was written in 60 s"
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (process.returncode, out, err) == (130, "", "Error: interrupted (SIGINT)\n")
    text = runs.read_text(encoding="utf-8")
    table = list(csv.DictReader(io.StringIO(text)))
    assert 2 <= len(table) < 200
    assert text.endswith("\n")
    assert all(None not in row for row in table)  # whole rows only
    # The rows kept are in the grid's order and are the runs' true numbers.
    assert [row["seed"] for row in table] == sorted((row["seed"] for row in table), key=int)
    for row in table[:2]:
        expected = run_json_cells(SCENE, int(row["seed"]), SETTING)
        assert {key: row[key] for key in expected} == expected
    assert not (folder / "summary.csv").exists()
    timings = list(csv.DictReader(io.StringIO((folder / "timings.csv").read_text())))
    assert [t["run"] for t in timings] == [row["run"] for row in table]
    assert sorted(p.name for p in folder.iterdir()) == ["runs.csv", "timings.csv"]
