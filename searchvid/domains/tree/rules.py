"""An explicit tree written down as nested mappings (the seed's ``DictTreeIterator``).

Children keep the order in which they were written. A node is a subtree plus a link to its
parent node, so it is immutable, hashable, cheap, and carries its own stack of ancestors.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from searchvid.errors import OptionError
from searchvid.search.node import Capability


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Tree:
    """An immutable labelled tree; compared by identity (deep trees must not recurse)."""

    label: str
    children: tuple[Tree, ...] = ()

    @classmethod
    def from_mapping(cls, label: str, children: Mapping[str, Any]) -> Tree:
        """Build a tree from ``{"child": {...}, ...}``; an empty mapping is a leaf.

        Raises:
            OptionError: A child that is not a table (key ``children.<path>``).
        """
        # Explicit pre-order with parent links; deep trees must not hit the recursion limit.
        items: list[tuple[str, Mapping[str, Any], int]] = [(label, children, -1)]
        index = 0
        while index < len(items):  # items grows while we walk it
            _, kids, _ = items[index]
            for name, sub in kids.items():
                if not isinstance(sub, Mapping):
                    where = _describe_path(items, index, name)
                    raise OptionError(where, "must be a table ({} for a leaf)")
                items.append((name, sub, index))
            index += 1
        kids_of: list[list[Tree]] = [[] for _ in items]
        built: list[Tree | None] = [None] * len(items)
        for index in range(len(items) - 1, -1, -1):
            name, _, parent = items[index]
            tree = cls(name, tuple(reversed(kids_of[index])))
            built[index] = tree
            if parent >= 0:
                kids_of[parent].append(tree)
        root = built[0]
        assert root is not None
        return root

    def __repr__(self) -> str:
        return f"Tree({self.label!r}, {len(self.children)} children)"

    def size(self) -> int:
        """Number of nodes in the tree."""
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count


def _describe_path(items: list[tuple[str, Mapping[str, Any], int]], index: int, name: str) -> str:
    names = [name]
    while index > 0:
        names.append(items[index][0])
        index = items[index][2]
    return "children." + ".".join(reversed(names))


@dataclass(frozen=True, slots=True, eq=False)
class TreeNode:
    """A node of a :class:`Tree`: its subtree plus a link to its parent node.

    Equality and hashing are by subtree identity, so building a node costs O(1) however deep
    it lies (a 100,000-deep chain stays linear).
    """

    CAPABILITIES: ClassVar[frozenset[Capability]] = frozenset({Capability.KEY})

    tree: Tree
    parent: TreeNode | None = None
    index: int = 0
    depth: int = 0

    @property
    def label(self) -> str:
        """The node's label."""
        return self.tree.label

    @property
    def root(self) -> TreeNode:
        """The root node of the whole tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    @property
    def path(self) -> tuple[int, ...]:
        """Child indices from the root to this node."""
        indices: list[int] = []
        node: TreeNode | None = self
        while node is not None and node.parent is not None:
            indices.append(node.index)
            node = node.parent
        return tuple(reversed(indices))

    def ancestors(self) -> list[TreeNode]:
        """This node's ancestors from the root down, excluding itself (the search stack)."""
        chain: list[TreeNode] = []
        node = self.parent
        while node is not None:
            chain.append(node)
            node = node.parent
        return chain[::-1]

    def children(self) -> Iterator[TreeNode]:
        """The children in the order they were written."""
        for index, child in enumerate(self.tree.children):
            yield TreeNode(child, self, index, self.depth + 1)

    def key(self) -> int:
        """Subtrees are distinct objects, so identity identifies the node within its tree."""
        return id(self.tree)

    def __hash__(self) -> int:
        return id(self.tree)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TreeNode):
            return NotImplemented
        return self.tree is other.tree

    def __repr__(self) -> str:
        return f"TreeNode({self.label!r}, depth={self.depth})"
