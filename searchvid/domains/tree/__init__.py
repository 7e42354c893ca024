"""The ``tree`` domain: an explicit tree given inline in the scene."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from searchvid.domains.base import Domain
from searchvid.domains.tree.rules import Tree, TreeNode
from searchvid.errors import OptionError
from searchvid.options import option
from searchvid.render.domainterms import DEAD_END, SHORTEST, START
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
    goal: str | None = option(
        None,
        doc="The label of the node to find: searches stop at it, the tree view flags it "
        "and `run --json` reports `solved` (none: every node is searched).",
    )

    def __post_init__(self) -> None:
        from searchvid.domains.tree.view import MAX_NODES

        # raises OptionError naming the child: not a table, a cycle, or too many nodes
        tree = Tree.from_mapping(self.root, self.children, limit=MAX_NODES)
        if self.goal is not None:
            labels = tree.labels()
            if self.goal not in labels:
                shown = ", ".join(repr(label) for label in labels[:_SHOWN_LABELS])
                extra = len(labels) - _SHOWN_LABELS
                more = f" and {extra} more" if extra > 0 else ""
                raise OptionError("goal", f"must be the label of a node of the tree: {shown}{more}")


_SHOWN_LABELS = 20
"""Labels a bad ``goal`` lists (a tree may have thousands)."""


class TreeDomain(Domain):
    """An explicit tree; by default the seed's "Algorithms" tree. With a ``goal`` label the
    nodes so labelled are goals (:meth:`is_goal`): searches stop at the first one."""

    name = "tree"
    summary = "An explicit tree written inline in the scene; optionally a goal node to find."
    options_type = TreeOptions
    terms: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            START: "the root",
            DEAD_END: "leaf",
            # a tree has no moves: a goal found level by level has none shallower
            SHORTEST: "no shallower goal",
        }
    )
    """The strip's generic phrases in a tree's words
    (:data:`~searchvid.render.domainterms.TERMS`): ``the root``, ``leaf``, ``no shallower
    goal``."""

    def __init__(self, options: TreeOptions) -> None:
        super().__init__(options)
        self.tree = Tree.from_mapping(options.root, options.children)
        self.goal: str | None = options.goal
        # per scene, not per class: only a tree given a goal has one
        vars(self)["has_goal"] = options.goal is not None

    def root(self) -> TreeNode:
        return TreeNode(self.tree)

    def view(self) -> View:
        from searchvid.domains.tree.view import TreeView

        return TreeView(self.tree, goal=self.goal)

    def label(self, node: Any) -> str:
        return str(node.label)

    def is_goal(self, node: Any) -> bool:
        """Whether ``node`` carries the ``goal`` label (never without a goal)."""
        return self.goal is not None and node.label == self.goal

    def describe_problem(self, node: Any) -> str | None:
        """``"a tree of 8 nodes, from Root"``: the tree below ``node``; with a goal, ``"find
        Beam Search in a tree of 8 nodes, from Root"``."""
        count = node.tree.size()
        text = f"a tree of {count} node{'s' if count != 1 else ''}, from {node.label}"
        return f"find {self.goal} in {text}" if self.goal is not None else text

    def describe_end(self, node: Any) -> str | None:
        """``"found Beam Search at depth 2"`` for a goal node, else None."""
        if not self.is_goal(node):
            return None
        return f"found {node.label} at depth {node.depth}"

    def status(self, node: Any) -> Sequence[Field]:
        """``at Beam Search``: the label of the node shown."""
        return (Field("at", str(node.label)),)

    def describe_move(self, parent: Any, child: Any) -> str | None:
        """``"go to Beam Search"``: the child's label; None when ``child`` is not a child of
        ``parent``."""
        if not any(kid is child.tree for kid in parent.tree.children):
            return None
        return f"go to {child.label}"
