"""The explicit tree domain's rules: order, labels, paths, deep trees."""

from __future__ import annotations

import re

import pytest

from searchvid.domains import domain_class, domain_names, make_domain
from searchvid.domains.tree.rules import Tree, TreeNode
from searchvid.errors import OptionError


def _preorder(node: TreeNode) -> list[TreeNode]:
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(list(current.children())))
    return out


def test_seed_tree_is_the_default_and_keeps_written_order() -> None:
    domain = make_domain("tree", {})
    labels = [n.label for n in _preorder(domain.root())]
    assert labels == [
        "Root",
        "Algorithms",
        "Breadth-First",
        "Depth-First",
        "Backtracking",
        "Beam Search",
        "Other",
        "Monte Carlo Tree Search",
    ]


def test_children_keep_the_order_written_not_sorted() -> None:
    domain = make_domain("tree", {"root": "R", "children": {"b": {}, "a": {"z": {}, "y": {}}}})
    root = domain.root()
    assert [c.label for c in root.children()] == ["b", "a"]
    a = list(root.children())[1]
    assert [c.label for c in a.children()] == ["z", "y"]
    assert domain.label(a) == "a"


def test_paths_ancestors_depth_and_identity() -> None:
    root = make_domain("tree", {}).root()
    nodes = _preorder(root)
    beam = next(n for n in nodes if n.label == "Beam Search")
    assert beam.path == (0, 1, 1)
    assert beam.depth == 3
    assert [a.label for a in beam.ancestors()] == ["Root", "Algorithms", "Depth-First"]
    assert beam.root == root
    again = next(n for n in _preorder(root) if n.label == "Beam Search")
    assert again == beam
    assert hash(again) == hash(beam)
    assert beam != nodes[0]


def test_a_child_that_is_not_a_table_is_named() -> None:
    with pytest.raises(OptionError) as info:
        make_domain("tree", {"children": {"a": {"b": {"c": 3}}}})
    assert info.value.key == "children.a.b.c"
    assert "must be a table" in info.value.message


def test_deep_chain_builds_and_walks_without_recursion() -> None:
    chain: dict[str, object] = {}
    cursor = chain
    for _ in range(100_000):
        cursor["n"] = {}
        cursor = cursor["n"]  # type: ignore[assignment]
    tree = Tree.from_mapping("top", chain)
    assert tree.size() == 100_001
    node = TreeNode(tree)
    while True:
        kids = list(node.children())
        if not kids:
            break
        node = kids[0]
    assert node.depth == 100_000
    assert len(node.path) == 100_000
    assert repr(tree) == "Tree('top', 1 children)"


def test_registry_lists_and_rejects_unknown_domains() -> None:
    names = domain_names()
    assert names == sorted(set(names))  # sorted, each once
    assert "tree" in names
    assert "chess" not in names
    assert domain_class("tree").name == "tree"
    known = re.escape(f"unknown domain 'chess'; known: {', '.join(names)}")
    with pytest.raises(OptionError, match=known):
        domain_class("chess")
