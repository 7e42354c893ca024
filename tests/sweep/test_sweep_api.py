"""``searchvid.sweep`` and ``searchvid.to_pandas``: the Python face of a sweep."""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest
from sweep_helpers import SCENE, run_json_cells

import searchvid
from searchvid.errors import SceneError, UsageError
from searchvid.experiments.table import cell, is_timing

TABLE = {
    "title": "A small tree",
    "domain": {"name": "tree", "root": "R", "children": {"A": {"A1": {}}, "B": {}}},
    "search": {"algorithm": "random-walk", "restarts": 1},
}


def comparable(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in row.items() if not is_timing(k)} for row in rows]


def test_rows_in_grid_order_equal_run_json() -> None:
    found = searchvid.sweep(SCENE, seeds=range(2), settings={"search.restarts": [1, 2]})
    assert [row["run"] for row in found] == [
        "search.restarts=1 seed=0",
        "search.restarts=1 seed=1",
        "search.restarts=2 seed=0",
        "search.restarts=2 seed=1",
    ]
    for row in found:
        assert (row["search.restarts"], row["error"]) in {(1, None), (2, None)}
        expected = run_json_cells(
            SCENE, int(row["seed"]), f"search.restarts={row['search.restarts']}"
        )  # type: ignore[call-overload]
        assert {key: cell(row[key]) for key in expected} == expected
        assert isinstance(row["score.total"], int)
        assert isinstance(row["seconds"], float)


def test_any_executor_gives_the_same_rows() -> None:
    alone = searchvid.sweep(SCENE, seeds=[3, 4, 5])
    with ProcessPoolExecutor(2) as pool:
        pooled = searchvid.sweep(SCENE, seeds=[3, 4, 5], executor=pool)
    with ThreadPoolExecutor(2) as threads:
        threaded = searchvid.sweep(SCENE, seeds=[3, 4, 5], executor=threads)
    assert comparable(pooled) == comparable(alone) == comparable(threaded)


def test_a_table_is_a_scene_too() -> None:
    found = searchvid.sweep(TABLE, seeds=[0, 1], settings={"search.restarts": [1]})
    assert [(row["scene"], row["title"], row["events"] > 0) for row in found] == [
        ("scene", "A small tree", True),
        ("scene", "A small tree", True),
    ]


def test_a_bad_value_is_refused_before_any_run() -> None:
    with pytest.raises(SceneError, match=r"search.restarts: must be >= 1, got 0$"):
        searchvid.sweep(SCENE, seeds=[0], settings={"search.restarts": [1, 0]})
    with pytest.raises(UsageError, match="--seeds: no seed to run"):
        searchvid.sweep(SCENE, seeds=[])


def test_a_scene_object_is_refused_with_what_to_pass() -> None:
    with pytest.raises(TypeError, match="a scene to sweep is a scene file's path"):
        searchvid.sweep(searchvid.load_scene(SCENE), seeds=[0])  # type: ignore[arg-type]


def test_to_pandas_without_pandas_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ModuleNotFoundError, match=r"needs pandas, .*: pip install pandas$"):
        searchvid.to_pandas([{"a": 1}])


def test_to_pandas_with_a_stand_in_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    class Frame:
        @staticmethod
        def from_records(records: list[dict[str, object]]) -> list[dict[str, object]]:
            return records

    fake = type(sys)("pandas")
    fake.DataFrame = Frame  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pandas", fake)
    assert searchvid.to_pandas([{"a": 1}]) == [{"a": 1}]


def test_importing_searchvid_loads_neither_matplotlib_nor_dask(tmp_path: Path) -> None:
    import subprocess

    code = (
        "import sys, searchvid, searchvid.cli; searchvid.sweep;"
        "print(sorted(m for m in ('matplotlib', 'distributed', 'dask') if m in sys.modules))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout == "[]\n"
