"""``searchvid trace --help`` names every key of the JSON lines ``trace`` prints (issue 23,
item 7)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from searchvid.cli import main


def keys_in_help() -> set[str]:
    """The quoted names in the help's description (before its options)."""
    result = CliRunner().invoke(main, ["trace", "--help"], catch_exceptions=False)
    assert result.exit_code == 0
    description = result.output.split("\nOptions:", 1)[0]
    return set(re.findall(r'"(\w+)"', description))


def keys_printed(scene: str) -> set[str]:
    """Every key of the lines ``trace SCENE`` prints."""
    result = CliRunner().invoke(main, ["trace", scene, "--limit", "300"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert records
    return {key for record in records for key in record}


def test_trace_help_lists_every_key_of_a_single_search_and_of_a_race() -> None:
    single = keys_printed("tree-backtracking")
    race = keys_printed("tree-bfs-vs-dfs")
    assert {"id", "parent"} <= single
    assert race - single == {"search"}  # the key only a race has
    assert keys_in_help() == single | race


def test_an_mcts_trace_has_no_key_the_help_does_not_name() -> None:
    assert keys_printed("tictactoe-mcts-tree") <= keys_in_help()
