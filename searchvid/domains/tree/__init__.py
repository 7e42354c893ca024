"""The ``tree`` domain: an explicit tree given inline in the scene."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from searchvid.domains.base import Domain
from searchvid.domains.tree.rules import Tree, TreeNode
from searchvid.options import option
from searchvid.render.view import View
from searchvid.search.status import Field

_SEED_TREE: Mapping[str, Any] = {
    "Algorithms": {
        "Breadth-First": {},
        "Depth-First": {"Backtracking": {}, "Beam Search": {}},
        "Other": {"Monte Carlo Tree Search": {}},
    }
}


@dataclass(frozen=True, kw_only=True)
class TreeOptions:
    """Options of the ``tree`` domain."""

    root: str = option("Root", doc="The root's label.")
    children: Mapping[str, Any] = option(
        _SEED_TREE,
        doc="Nested tables, one per child, in order; an empty table is a leaf.",
    )

    def __post_init__(self) -> None:
        from searchvid.domains.tree.view import MAX_NODES

        # raises OptionError naming the child: not a table, a cycle, or too many nodes
        Tree.from_mapping(self.root, self.children, limit=MAX_NODES)


class TreeDomain(Domain):
    """An explicit tree; by default the seed's "Algorithms" tree."""

    name = "tree"
    summary = "An explicit tree written inline in the scene."
    options_type = TreeOptions

    def __init__(self, options: TreeOptions) -> None:
        super().__init__(options)
        self.tree = Tree.from_mapping(options.root, options.children)

    def root(self) -> TreeNode:
        return TreeNode(self.tree)

    def view(self) -> View:
        from searchvid.domains.tree.view import TreeView

        return TreeView(self.tree)

    def label(self, node: Any) -> str:
        return str(node.label)

    def describe_problem(self, node: Any) -> str | None:
        """``"a tree of 8 nodes, from Root"``: the tree below ``node``."""
        count, stack = 0, [node.tree]
        while stack:  # no recursion: trees may be deep
            tree = stack.pop()
            count += 1
            stack.extend(tree.children)
        return f"a tree of {count} node{'s' if count != 1 else ''}, from {node.label}"

    def status(self, node: Any) -> Sequence[Field]:
        """``at Beam Search``: the label of the node shown."""
        return (Field("at", str(node.label)),)

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """``"go to Beam Search"``: the child's label; None when ``child`` is not a child of
        ``parent``."""
        if not any(kid is child.tree for kid in parent.tree.children):
            return None
        return f"go to {child.label}"
