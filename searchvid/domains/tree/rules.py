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
    def from_mapping(
        cls, label: str, children: Mapping[str, Any], *, limit: int | None = None
    ) -> Tree:
        """Build a tree from ``{"child": {...}, ...}``; an empty mapping is a leaf.

        Mappings built in Python may be shared or nested in themselves: a table met again
        inside itself is a cycle and is refused, one met again elsewhere is copied, and
        ``limit`` bounds the nodes built, so no input grows without bound.

        Args:
            label: The root's label.
            children: The root's children.
            limit: The most nodes the tree may have (None: no limit).

        Raises:
            OptionError: A child that is not a table, or that contains itself (key
                ``children.<path>``), or more than ``limit`` nodes (key ``children``).
        """
        # An explicit depth-first walk (deep trees must not hit the recursion limit). The
        # tables on the walk's path, by id, catch a cycle the moment it closes.
        # frame: (label, its remaining (name, table) items, its children built, its table)
        stack: list[tuple[str, Iterator[tuple[str, Any]], list[Tree], int]] = [
            (label, iter(children.items()), [], id(children))
        ]
        on_path = {id(children)}
        names: list[str] = []  # the names of the tables on the path, below the root
        count = 1
        while True:
            own, items, built, table = stack[-1]
            for name, sub in items:
                if not isinstance(sub, Mapping):
                    raise OptionError(_key(names, name), "must be a table ({} for a leaf)")
                count += 1
                if limit is not None and count > limit:
                    raise OptionError(
                        "children",
                        f"the tree has more than {limit} nodes; the tree view draws at most "
                        f"{limit}",
                    )
                if not sub:
                    built.append(cls(name))
                    continue
                if id(sub) in on_path:
                    raise OptionError(
                        _key(names, name),
                        "refers back to a table it is inside (a cycle): a tree cannot "
                        "contain itself",
                    )
                stack.append((name, iter(sub.items()), [], id(sub)))
                on_path.add(id(sub))
                names.append(name)
                break
            else:
                stack.pop()
                on_path.discard(table)
                tree = cls(own, tuple(built))
                if not stack:
                    return tree
                names.pop()
                stack[-1][2].append(tree)

    def __repr__(self) -> str:
        return f"Tree({self.label!r}, {len(self.children)} children)"

    def labels(self) -> list[str]:
        """The nodes' labels in pre-order (the root first, children in the order written)."""
        labels, stack = [], [self]
        while stack:  # no recursion: trees may be deep
            node = stack.pop()
            labels.append(node.label)
            stack.extend(reversed(node.children))
        return labels

    def size(self) -> int:
        """Number of nodes in the tree."""
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count


def _key(names: list[str], name: str) -> str:
    """The option key of child ``name`` of the table at ``names`` (``children.a.b``)."""
    return "children." + ".".join([*names, name])


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
