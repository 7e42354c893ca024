"""Tree tables built in Python: a table nested in itself, or shared until the tree is huge,
is refused where it enters with one line naming the key, before it can grow without bound."""

from __future__ import annotations

from typing import Any

import pytest

import searchvid
from searchvid.domains import make_domain
from searchvid.domains.tree.rules import Tree
from searchvid.domains.tree.view import MAX_NODES
from searchvid.errors import OptionError

CYCLE = "refers back to a table it is inside (a cycle): a tree cannot contain itself"


def scene(children: dict[str, Any]) -> searchvid.Scene:
    table = {
        "domain": {"name": "tree", "children": children},
        "search": {"algorithm": "backtracking"},
    }
    return searchvid.scene_from_dict(table, name="mytree")


def test_a_table_that_contains_itself_is_a_scene_error_naming_the_key() -> None:
    children: dict[str, Any] = {"a": {}}
    children["b"] = children
    with pytest.raises(searchvid.SceneError) as caught:
        scene(children)
    assert str(caught.value) == f"mytree: domain.children.b: {CYCLE}"


def test_a_cycle_deep_down_names_the_key_that_closes_it() -> None:
    inner: dict[str, Any] = {"leaf": {}}
    outer = {"x": {"y": inner}}
    inner["back"] = outer["x"]
    with pytest.raises(searchvid.SceneError) as caught:
        scene(outer)
    assert str(caught.value) == f"mytree: domain.children.x.y.back: {CYCLE}"


def test_shared_tables_are_copied_but_bounded() -> None:
    shared = {"c": {"d": {}}}
    tree = Tree.from_mapping("r", {"a": shared, "b": shared})
    assert tree.size() == 7
    a, b = tree.children
    assert a.children[0].label == b.children[0].label == "c"
    assert a.children[0] is not b.children[0]  # each place is a node of its own
    # sixty levels of a table shared twice: 2**61 nodes, refused at the view's limit
    table: dict[str, Any] = {}
    for _ in range(60):
        table = {"l": table, "r": table}
    with pytest.raises(searchvid.SceneError) as caught:
        scene(table)
    assert str(caught.value) == (
        f"mytree: domain.children: the tree has more than {MAX_NODES} nodes; the tree view "
        f"draws at most {MAX_NODES}"
    )


def test_the_largest_tree_the_view_draws_is_accepted() -> None:
    children = {f"n{i}": {} for i in range(MAX_NODES - 1)}  # and the root
    assert make_domain("tree", {"children": children}).tree.size() == MAX_NODES
    children[f"n{MAX_NODES}"] = {}
    with pytest.raises(OptionError) as caught:
        make_domain("tree", {"children": children})
    assert caught.value.key == "children"


def test_without_a_limit_only_cycles_are_refused() -> None:
    chain: dict[str, Any] = {}
    cursor = chain
    for _ in range(5000):
        cursor["n"] = {}
        cursor = cursor["n"]
    assert Tree.from_mapping("top", chain).size() == 5001
    cursor["loop"] = chain
    with pytest.raises(OptionError) as caught:
        Tree.from_mapping("top", chain)
    assert caught.value.key == "children." + ".".join(["n"] * 5000 + ["loop"])
