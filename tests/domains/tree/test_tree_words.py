"""The explicit tree in words: the node shown, and moves to a child by its label."""

from __future__ import annotations

from searchvid.conformance import check_domain
from searchvid.domains import make_domain
from searchvid.domains.tree import TreeDomain
from searchvid.domains.tree.rules import TreeNode


def _domain() -> TreeDomain:
    domain = make_domain("tree", {})
    assert isinstance(domain, TreeDomain)
    return domain


def _child(node: TreeNode, label: str) -> TreeNode:
    return next(child for child in node.children() if child.label == label)


def test_status_names_the_node_shown() -> None:
    domain = _domain()
    root = domain.root()
    assert [field.text() for field in domain.status(root)] == ["at Root"]
    beam = _child(_child(_child(root, "Algorithms"), "Depth-First"), "Beam Search")
    assert [field.text() for field in domain.status(beam)] == ["at Beam Search"]


def test_a_move_goes_to_the_child_by_its_label() -> None:
    domain = _domain()
    root = domain.root()
    algorithms = _child(root, "Algorithms")
    assert domain.describe_move(root, algorithms) == "go to Algorithms"
    depth_first = _child(algorithms, "Depth-First")
    assert domain.describe_move(algorithms, depth_first) == "go to Depth-First"
    rebuilt = _child(_child(domain.root(), "Algorithms"), "Depth-First")  # equal, not the same
    assert domain.describe_move(algorithms, rebuilt) == "go to Depth-First"


def test_what_is_not_a_child_has_no_words() -> None:
    domain = _domain()
    root = domain.root()
    algorithms = _child(root, "Algorithms")
    depth_first = _child(algorithms, "Depth-First")
    assert domain.describe_move(root, root) is None
    assert domain.describe_move(root, depth_first) is None  # a grandchild
    assert domain.describe_move(algorithms, root) is None  # back up
    same_label = make_domain("tree", {"children": {"Algorithms": {}}}).root()
    assert domain.describe_move(same_label, algorithms) is None  # another tree


def test_the_domain_still_passes_the_conformance_checks() -> None:
    assert check_domain(_domain()) == []
