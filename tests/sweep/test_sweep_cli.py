"""``searchvid sweep``: the tables, the executors agree, failures, --resume, errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sweep_helpers import SCENE, invoke, line_of, rows, run_json_cells, write_flaky

from searchvid.experiments.table import RUN_KEYS

SETTING = "search.restarts=1,2"
SEEDS = "0..2"

HEADER = (
    "run,search.restarts,seed,scene,title,domain,algorithm,events,frames,best.label,"
    "best.value,best.depth,solved,ended,max_events_reached,score.total,score.exits,score.road,"
    "score.rail,score.centre,score.errors,rounds,error\n"
)


def sweep(folder: Path, *args: str) -> str:
    """Run the small sweep into ``folder``; its standard output."""
    result = invoke("sweep", SCENE, "--seeds", SEEDS, "--set", SETTING, "-o", str(folder), *args)
    assert result.exit_code == 0, result.output
    return str(result.stdout)


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small sweep run in this process (--jobs 1)."""
    folder = tmp_path_factory.mktemp("serial") / "out"
    sweep(folder, "--jobs", "1", "-q")
    return folder


def test_the_header_and_the_grid_order(serial: Path) -> None:
    text = (serial / "runs.csv").read_text(encoding="utf-8")
    assert text.startswith(HEADER)
    assert [row["run"] for row in rows(serial / "runs.csv")] == [
        f"search.restarts={r} seed={s}" for r in (1, 2) for s in (0, 1, 2)
    ]
    timings = rows(serial / "timings.csv")
    assert list(timings[0]) == ["run", "seconds", "peak_rss_mb", "wall_seconds"]
    assert [row["run"] for row in timings] == [row["run"] for row in rows(serial / "runs.csv")]
    assert all(float(row["seconds"]) >= 0 and float(row["wall_seconds"]) > 0 for row in timings)


def test_each_row_equals_run_json_for_its_seed_and_setting(serial: Path) -> None:
    for row in rows(serial / "runs.csv"):
        restarts = row["search.restarts"]
        expected = run_json_cells(SCENE, int(row["seed"]), f"search.restarts={restarts}")
        shown = {key: value for key, value in row.items() if key in expected}
        assert shown == expected
        assert set(expected) <= set(row)
        assert row["error"] == ""
    assert set(RUN_KEYS) <= set(rows(serial / "runs.csv")[0])


def test_two_processes_write_the_same_bytes(serial: Path, tmp_path: Path) -> None:
    sweep(tmp_path / "pool", "--jobs", "2", "-q")
    for name in ("runs.csv", "distribution.svg", "distribution.png", "vs-search.restarts.svg"):
        assert (tmp_path / "pool" / name).read_bytes() == (serial / name).read_bytes(), name


@pytest.mark.slow
def test_a_dask_local_cluster_writes_the_same_bytes(serial: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    sweep(tmp_path / "dask", "--scheduler", "local", "--jobs", "2", "-q")
    assert (tmp_path / "dask" / "runs.csv").read_bytes() == (serial / "runs.csv").read_bytes()


def test_the_summary_by_hand(serial: Path) -> None:
    table = rows(serial / "runs.csv")
    summary = rows(serial / "summary.csv")
    assert [row["search.restarts"] for row in summary] == ["1", "2"]
    for line in summary:
        scores = [
            float(r["score.total"])
            for r in table
            if r["search.restarts"] == line["search.restarts"]
        ]
        mean = sum(scores) / 3
        sd = (sum((s - mean) ** 2 for s in scores) / 2) ** 0.5
        half = 4.302652730 * sd / 3**0.5  # t(0.975, 2 degrees of freedom)
        assert (line["n"], line["failed"], line["metric"]) == ("3", "0", "score.total")
        assert float(line["mean"]) == pytest.approx(mean, abs=1e-12)
        assert float(line["sd"]) == pytest.approx(sd, abs=1e-12)
        assert float(line["ci95_low"]) == pytest.approx(mean - half, abs=1e-7)
        assert float(line["ci95_high"]) == pytest.approx(mean + half, abs=1e-7)
        assert line["solved_rate"] == "0.0"  # the dice game has no goal reached here


def test_the_terminal_table_and_the_files_written(tmp_path: Path) -> None:
    out = sweep(tmp_path / "out", "--jobs", "1", "--metric", "events")
    lines = out.splitlines()
    assert lines[0].split() == [
        "search.restarts",
        "n",
        "mean",
        "events",
        "sd",
        "95%",
        "CI",
        "solved",
        "seconds",
    ]
    assert [line.split()[:2] for line in lines[1:3]] == [["1", "3"], ["2", "3"]]
    assert lines[3].startswith("6 runs -> ")
    assert rows(tmp_path / "out" / "summary.csv")[0]["metric"] == "events"


def test_a_failing_run_is_a_row_with_its_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_flaky(tmp_path)
    result = invoke(
        "sweep", "flaky.toml", "--seeds", "0..3", "--set", "domain.bad=-1,3", "-o", "out", "-j", "1"
    )
    assert result.exit_code == 0, result.output
    table = rows(tmp_path / "out" / "runs.csv")
    errors = {row["run"]: row["error"] for row in table if row["error"]}
    message = (
        f"flaky.py:{line_of('raises')} in Step.children(): IndexError: list index out of range"
    )
    assert errors == {"domain.bad=3 seed=2": message}
    failed = next(row for row in table if row["error"])
    assert (failed["title"], failed["domain"], failed["events"], failed["best.value"]) == (
        "A flaky domain",
        "flaky",
        "",
        "",
    )
    summary = rows(tmp_path / "out" / "summary.csv")
    assert [(s["n"], s["failed"]) for s in summary] == [("4", "0"), ("3", "1")]


def test_resume_runs_only_the_missing_rows(serial: Path, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    first = invoke(
        "sweep", SCENE, "--seeds", "0..1", "--set", SETTING, "-o", str(folder), "-j", "1"
    )
    assert first.exit_code == 0, first.output
    kept = {row["run"]: row for row in rows(folder / "timings.csv")}
    again = invoke("sweep", SCENE, "--seeds", SEEDS, "--set", SETTING, "-o", str(folder), "-j", "1")
    assert again.exit_code == 2
    assert again.stderr == (
        f"Error: {folder / 'runs.csv'} exists: pass --resume to go on with that sweep, "
        "or choose another -o\n"
    )
    sweep(folder, "--jobs", "1", "--resume")
    assert (folder / "runs.csv").read_bytes() == (serial / "runs.csv").read_bytes()
    timings = {row["run"]: row for row in rows(folder / "timings.csv")}
    assert all(timings[run] == row for run, row in kept.items())  # not run again


def test_resume_refuses_a_folder_of_another_sweep(serial: Path, tmp_path: Path) -> None:
    result = invoke(
        "sweep", SCENE, "--seeds", "0", "--set", "search.value=score", "-o", str(serial), "--resume"
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {serial / 'runs.csv'}: written by another sweep")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--metric", "nope"],
            "--metric nope: not a number of these runs; choose one of: events, "
            "frames, best.value, best.depth, solved, max_events_reached, score.total, score.exits, "
            "score.road, score.rail, score.centre, score.errors, rounds",
        ),
        (["--seeds", "5..2"], "--seeds 5..2: the range is empty (LAST < FIRST)"),
        (["--seeds", "a"], "--seeds 'a': write FIRST..LAST (e.g. 0..49) or a list: 1,5,9"),
        (
            ["--set", "seed=1,2"],
            "--set seed: the seed has its own option (--seed, or --seeds in sweep)",
        ),
        (
            ["--set", "search.restarts=0"],
            "scenes/railroad-game-random.toml: search.restarts: must be >= 1, got 0",
        ),
        (
            ["--set", "board.x=1"],
            "--set board.x: not a scene key; allowed: title, domain.KEY, "
            "search.KEY, video.KEY, search[i].KEY",
        ),
        (
            ["--render", "best,middle"],
            "--render 'best,middle': choose from best, median, worst, e.g. best,worst",
        ),
        (
            ["--scheduler", "example.org:8786"],
            "--scheduler 'example.org:8786': write local or tcp://HOST:PORT",
        ),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # scenes/ by its relative path
    result = invoke("sweep", SCENE, "-o", str(tmp_path / "out"), *args)
    assert (result.exit_code, result.stderr) == (2, f"Error: {message}\n")
    assert not (tmp_path / "out").exists()


def test_scheduler_without_dask_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = invoke("sweep", SCENE, "--scheduler", "local", "-o", str(tmp_path / "out"))
    assert (result.exit_code, result.stderr) == (
        2,
        "Error: --scheduler needs Dask: pip install 'searchvid[dask]'\n",
    )


def test_render_best_and_worst(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    result = invoke(
        "sweep",
        SCENE,
        "--seeds",
        "0..2",
        "-o",
        str(folder),
        "-j",
        "1",
        "-q",
        "--render",
        "worst,best",
        "--set",
        "video.max_frames=6",
    )
    assert result.exit_code == 0, result.output
    table = rows(folder / "runs.csv")
    scores = {row["run"]: int(row["score.total"]) for row in table}
    best = max(scores, key=lambda run: scores[run])
    worst = min(scores, key=lambda run: scores[run])
    lines = result.stdout.splitlines()[-2:]
    assert lines[0].startswith(f"worst (score.total {scores[worst]}, {worst}): ")
    assert lines[1].startswith(f"best (score.total {scores[best]}, {best}): ")
    assert (folder / "best.mp4").stat().st_size > 0
    assert (folder / "worst.mp4").stat().st_size > 0


def test_a_race_has_a_column_per_search(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    result = invoke("sweep", "tree-bfs-vs-dfs", "--seeds", "0..1", "-o", str(folder), "-j", "1")
    assert result.exit_code == 0, result.output
    for row in rows(folder / "runs.csv"):
        expected = run_json_cells("tree-bfs-vs-dfs", int(row["seed"]))
        assert {key: row[key] for key in expected} == expected
        assert (row["failed"], row["searches.1.algorithm"]) == ("[]", "backtracking")
    timings = rows(folder / "timings.csv")
    assert list(timings[0]) == [
        "run", "seconds", "peak_rss_mb", "wall_seconds", "searches.0.seconds",
        "searches.0.peak_rss_mb", "searches.1.seconds", "searches.1.peak_rss_mb",
    ]  # fmt: skip
