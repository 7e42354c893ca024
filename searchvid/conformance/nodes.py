"""Checks of the nodes themselves: metadata, options, root, children, equality, capabilities,
turns, rewards and chance nodes."""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
import random
from collections.abc import Callable, Iterator
from typing import Any

from searchvid.conformance.probe import (
    CHANCE_DRAWS,
    CHANCE_NODES_DRAWN,
    GAME_LENGTH,
    GAME_SEEDS,
    PROBABILITY_TOLERANCE,
    UNSET,
    CheckFailedError,
    Probe,
    call,
    first_difference,
    listed,
    show,
)
from searchvid.search.node import (
    Capability,
    is_chance,
    is_terminal,
)


def check_metadata(probe: Probe) -> Iterator[str]:
    for attribute in ("name", "summary"):
        value = getattr(probe.domain, attribute, None)
        if not isinstance(value, str) or not value.strip():
            yield f"{attribute} must be a non-empty string, got {show(value)}"


def check_options(probe: Probe) -> Iterator[str]:
    cls = getattr(type(probe.domain), "options_type", None)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        yield (
            f"options_type must be a dataclass (@dataclass(frozen=True, kw_only=True)), "
            f"got {show(cls)}"
        )
        return
    params: Any = getattr(cls, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        yield f"options_type {cls.__name__} must be frozen: @dataclass(frozen=True, kw_only=True)"
    fields = [f for f in dataclasses.fields(cls) if f.init]
    positional = [f.name for f in fields if not f.kw_only]
    if positional:
        yield (
            f"options of {cls.__name__} must be keyword-only (kw_only=True): "
            + ", ".join(positional)
        )
    undocumented = [f.name for f in fields if not f.metadata.get("doc")]
    if undocumented:
        yield (
            f"options of {cls.__name__} without a doc (declare them with "
            f"searchvid.option(default, doc=...)): " + ", ".join(undocumented)
        )
    options = getattr(probe.domain, "options", UNSET)
    if options is UNSET:
        yield "the domain has no options attribute: call super().__init__(options)"
    elif not isinstance(options, cls):
        yield f"the domain's options are {show(options)}, not a {cls.__name__}"


def check_root(probe: Probe) -> Iterator[str]:
    root = probe.root
    code = probe.hash(root)
    if not probe.equal(root, root):
        yield "the root is not equal to itself (root == root is False)"
    if probe.hash(root) != code:
        yield "hash() of the root changes from one call to the next"
    again = probe.fresh_root()
    if not probe.equal(again, root):
        yield (
            "a second root() call gives a node not equal to the first: nodes must compare by "
            "their state (a frozen dataclass, or __eq__ and __hash__)"
        )
    elif probe.hash(again) != code:
        yield "two root() calls give equal nodes with different hashes"


def check_has_children(probe: Probe) -> Iterator[str]:
    if not probe.children(probe.root):
        yield "the root has no children: every search would end at once"


def check_children(probe: Probe) -> Iterator[str]:
    for node in probe.nodes:
        first, second = probe.children(node), probe.children(node)
        difference = first_difference(probe, first, second, "child")
        if difference is not None:
            yield (
                f"children() of {probe.name(node)} gave different children on a second call "
                f"({difference}); children must come in a deterministic order"
            )
            return
        if [probe.hash(c) for c in first] != [probe.hash(c) for c in second]:
            yield f"the children of {probe.name(node)} have hashes that change between calls"
            return


def check_equality(probe: Probe) -> Iterator[str]:
    first = probe.children(probe.root)
    second = probe.children(probe.fresh_root())
    difference = first_difference(probe, first, second, "child")
    if difference is not None:
        yield (
            f"the children of two separate root() calls differ ({difference}): equality "
            "must depend on the state, not on object identity"
        )
    elif [probe.hash(c) for c in first] != [probe.hash(c) for c in second]:
        yield "equal children of two separate root() calls have different hashes"
    nodes = probe.nodes
    hashes = [probe.hash(node) for node in nodes]
    for node in nodes:
        if not probe.equal(node, node):
            yield f"{probe.name(node)} is not equal to itself"
            return
    for i, j in itertools.combinations(range(len(nodes)), 2):
        if hashes[i] != hashes[j] and probe.equal(nodes[i], nodes[j]):
            one, other = probe.name(nodes[i]), probe.name(nodes[j])
            yield f"{one} and {other} are equal but have different hashes"
            return


def check_capabilities(probe: Probe) -> Iterator[str]:
    root = probe.root
    declared = probe.declared(root)
    missing = [c for c in sorted(declared, key=_order) if not _implements(root, c)]
    for capability in missing:
        yield (
            f"{type(root).__name__} declares Capability.{capability.name} but does not "
            f"implement {capability.description}"
        )
    failed: set[Capability] = set(missing)
    for node in probe.nodes:
        if probe.declared(node) != declared:
            yield (
                f"{probe.name(node)} ({type(node).__name__}) declares "
                f"{_capability_names(probe.declared(node))}, while the root declares "
                f"{_capability_names(declared)}: every node must offer the same capabilities"
            )
            return
        kids = probe.children(node)
        for capability in sorted(declared - failed, key=_order):
            try:
                problem = _CAPABILITY_CHECKS[capability](probe, node, kids)
            except CheckFailedError as exc:
                problem = exc.message
            if problem is not None:
                failed.add(capability)
                yield problem


def _order(capability: Capability) -> int:
    return list(Capability).index(capability)


def _capability_names(capabilities: frozenset[Capability]) -> str:
    names = [c.name for c in sorted(capabilities, key=_order)]
    return "{" + ", ".join(names) + "}" if names else "no capabilities"


def _implements(node: Any, capability: Capability) -> bool:
    if capability is Capability.CHANCE:
        names = ("is_chance", "outcomes", "sample_outcome")
        return all(callable(getattr(type(node), name, None)) for name in names)
    try:
        attribute = getattr(node, capability.value)
    except Exception:  # a missing attribute, or a property that raises
        return capability is Capability.TO_MOVE and hasattr(type(node), "to_move")
    return capability is Capability.TO_MOVE or callable(attribute)


def _terminal_problem(probe: Probe, node: Any, kids: list[Any]) -> str | None:
    result = call(f"is_terminal() of {probe.name(node)}", node.is_terminal)
    if not isinstance(result, bool):
        return f"is_terminal() of {probe.name(node)} returned {show(result)}; it must be a bool"
    return None


def _to_move_problem(probe: Probe, node: Any, kids: list[Any]) -> str | None:
    player = call(f"to_move of {probe.name(node)}", getattr, node, "to_move")
    if isinstance(player, bool) or not isinstance(player, numbers.Integral) or player not in (0, 1):
        return f"to_move of {probe.name(node)} is {show(player)}; it must be 0 or 1"
    return None


def _reward_problem(probe: Probe, node: Any, kids: list[Any]) -> str | None:
    return None  # the rewards check calls reward() at terminal nodes


def _key_problem(probe: Probe, node: Any, kids: list[Any]) -> str | None:
    what = f"key() of {probe.name(node)}"
    key = call(what, node.key)
    try:
        hash(key)
    except Exception as exc:
        return f"{what} returned {show(key)}, which is not hashable: {exc}"
    if not probe.equal(key, call(what, node.key)):
        return f"{what} changes from one call to the next"
    return None


def _filtered_problem(probe: Probe, node: Any, kids: list[Any]) -> str | None:
    what = f"filtered_children() of {probe.name(node)}"
    filtered = call(what, listed, node.filtered_children)
    for child in filtered:
        if not probe.among(child, kids):
            return f"{what} gives {probe.name(child)}, which children() does not give"
    if bool(filtered) != bool(kids):
        state = "empty although children() is not" if kids else "not empty but children() is"
        return f"{what} is {state}"
    return None


def _random_child_problem(probe: Probe, node: Any, kids: list[Any]) -> str | None:
    what = f"random_child(rng) of {probe.name(node)}"
    child = call(what, node.random_child, random.Random(4))
    if child is None:
        return f"{what} returned None although it has children" if kids else None
    if not kids:
        return f"{what} returned {probe.name(child)} although children() gives none"
    if not probe.among(child, kids):
        return f"{what} returned {probe.name(child)}, which children() does not give"
    return None


def _chance_problem(probe: Probe, node: Any, kids: list[Any]) -> str | None:
    result = call(f"is_chance() of {probe.name(node)}", node.is_chance)
    if not isinstance(result, bool):
        return f"is_chance() of {probe.name(node)} returned {show(result)}; it must be a bool"
    return None  # the chance check looks at the outcomes


_CAPABILITY_CHECKS: dict[Capability, Callable[[Probe, Any, list[Any]], str | None]] = {
    Capability.TERMINAL: _terminal_problem,
    Capability.TO_MOVE: _to_move_problem,
    Capability.REWARD: _reward_problem,
    Capability.KEY: _key_problem,
    Capability.FILTERED_CHILDREN: _filtered_problem,
    Capability.RANDOM_CHILD: _random_child_problem,
    Capability.CHANCE: _chance_problem,
}


def check_turns(probe: Probe) -> Iterator[str]:
    root = probe.root
    if Capability.TO_MOVE not in probe.declared(root):
        return
    edges = [(root, child) for child in probe.children(root)]
    edges += [pair for walk in probe.walks for pair in itertools.pairwise(walk)]
    for parent, child in edges:
        before = call(f"to_move of {probe.name(parent)}", getattr, parent, "to_move")
        after = call(f"to_move of {probe.name(child)}", getattr, child, "to_move")
        if before in (0, 1) and after != 1 - before:
            yield (
                f"to_move is {before!r} at {probe.name(parent)} and {after!r} at its child "
                f"{probe.name(child)}: the two players must take turns"
            )
            return


def check_rewards(probe: Probe) -> Iterator[str]:
    root = probe.root
    declared = probe.declared(root)
    if Capability.REWARD not in declared:
        return
    walks, stopped = probe.games
    if stopped is not None:
        yield stopped
        return
    ends = [walk[-1] for walk in walks]
    terminal = [n for n in ends + probe.nodes if ends_game(probe, n)]
    if Capability.TO_MOVE in declared and not any(ends_game(probe, end) for end in ends):
        yield (
            f"none of {len(GAME_SEEDS)} random games from the root ended within "
            f"{GAME_LENGTH} moves: a two-player game must reach terminal nodes"
        )
    for node in terminal:
        reward = call(f"reward() of {probe.name(node)}", node.reward)
        if not isinstance(reward, float) or not 0.0 <= reward <= 1.0:
            yield (
                f"reward() of {probe.name(node)} returned {show(reward)} "
                "(must be a float in [0, 1])"
            )
            return


def ends_game(probe: Probe, node: Any) -> bool:
    """``is_terminal(node)``, guarded."""
    return call(f"is_terminal() of {probe.name(node)}", is_terminal, node)


def check_chance(probe: Probe) -> Iterator[str]:
    root = probe.root
    declared = probe.declared(root)
    if Capability.CHANCE not in declared or not _implements(root, Capability.CHANCE):
        return  # the capabilities check names what is missing
    seen: list[Any] = []
    for node in probe.nodes:
        if probe.among(node, seen):
            continue
        if not call(f"is_chance() of {probe.name(node)}", is_chance, node):
            continue
        seen.append(node)
        draws = CHANCE_DRAWS if len(seen) <= CHANCE_NODES_DRAWN else 0
        problem = _chance_node_problem(probe, node, declared, draws)
        if problem is not None:
            yield problem
            return


def _chance_node_problem(
    probe: Probe, node: Any, declared: frozenset[Capability], draws: int
) -> str | None:
    """What is wrong with one chance node: its outcomes, its children, its sampling."""
    name = probe.name(node)
    if ends_game(probe, node):
        return f"{name} is a chance node and terminal: a chance node is never terminal"
    pairs = call(f"outcomes() of {name}", listed, node.outcomes)
    if not pairs:
        return f"outcomes() of {name} is empty: a chance node needs at least one outcome"
    probabilities: list[float] = []
    nodes: list[Any] = []
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            return (
                f"outcomes() of {name} gives {show(pair)}: each outcome must be a "
                "(probability, node) pair"
            )
        probability, outcome = pair
        good = isinstance(probability, numbers.Real) and not isinstance(probability, bool)
        if not good or not math.isfinite(float(probability)) or probability <= 0:
            return (
                f"outcomes() of {name} gives probability {show(probability)} to "
                f"{probe.name(outcome)}: probabilities must be numbers > 0"
            )
        probabilities.append(float(probability))
        nodes.append(outcome)
    total = math.fsum(probabilities)
    if abs(total - 1.0) > PROBABILITY_TOLERANCE:
        return f"the probabilities of the outcomes() of {name} sum to {total!r}, not 1"
    problem = _outcome_nodes_problem(probe, name, nodes, declared)
    if problem is not None:
        return problem
    difference = first_difference(probe, probe.children(node), nodes, "child")
    if difference is not None:
        return (
            f"children() of {name} (a chance node) are not its outcomes() in the same "
            f"order ({difference})"
        )
    return _sampling_problem(probe, node, nodes, probabilities, draws)


def _outcome_nodes_problem(
    probe: Probe, name: str, nodes: list[Any], declared: frozenset[Capability]
) -> str | None:
    index: dict[Any, int] = {}
    for i, outcome in enumerate(nodes):
        probe.hash(outcome)
        kind = type(outcome).__name__
        found = probe.declared(outcome)
        if found != declared:
            return (
                f"outcome {i} of {name} is {probe.name(outcome)} ({kind}), which declares "
                f"{_capability_names(found)} while the root declares "
                f"{_capability_names(declared)}: outcomes must be nodes of the domain"
            )
        earlier = call(f"looking up outcome {i} of {name}", index.get, outcome)
        if earlier is not None:
            return (
                f"outcomes {earlier} and {i} of {name} are equal ({probe.name(outcome)}): "
                "merge equal outcomes into one, adding their probabilities"
            )
        index[outcome] = i
    return None


def _sampling_problem(
    probe: Probe, node: Any, nodes: list[Any], probabilities: list[float], draws: int
) -> str | None:
    name = probe.name(node)
    what = f"sample_outcome(rng) of {name}"
    first = call(what, node.sample_outcome, random.Random(4))
    if not probe.among(first, nodes):
        return f"{what} returned {probe.name(first)}, which is not one of its outcomes()"
    again = call(what, node.sample_outcome, random.Random(4))
    if not probe.equal(first, again):
        return (
            f"two calls of {what} with equally seeded rngs returned {probe.name(first)}, then "
            f"{probe.name(again)}: draw only from the rng given"
        )
    if draws <= 0 or len(nodes) < 2:
        return None
    index = {outcome: i for i, outcome in enumerate(nodes)}
    counts = [0] * len(nodes)
    rng = random.Random(0)
    for _ in range(draws):
        drawn = call(what, node.sample_outcome, rng)
        found = index.get(drawn)
        if found is None:
            return f"{what} returned {probe.name(drawn)}, which is not one of its outcomes()"
        counts[found] += 1
    return _frequency_problem(probe, what, nodes, probabilities, counts)


def _frequency_problem(
    probe: Probe, what: str, nodes: list[Any], probabilities: list[float], counts: list[int]
) -> str | None:
    """A loose chi-square test of the draw counts against the probabilities.

    Outcomes expected fewer than 5 times are pooled into one bin; the statistic must stay
    below ``df + 6 * sqrt(2 * df) + 10`` (far in the tail: a correct sampler never fails it
    for the fixed seed, while a wrong distribution over a few thousand draws does).
    """
    draws = sum(counts)
    bins: list[tuple[float, int]] = []
    rare_expected, rare_count = 0.0, 0
    for p, count in zip(probabilities, counts, strict=True):
        expected = p * draws
        if expected < 5:
            rare_expected += expected
            rare_count += count
        else:
            bins.append((expected, count))
    if rare_expected >= 5:
        bins.append((rare_expected, rare_count))
    if len(bins) < 2:
        return None
    statistic = sum((count - expected) ** 2 / expected for expected, count in bins)
    df = len(bins) - 1
    if statistic <= df + 6 * math.sqrt(2 * df) + 10:
        return None
    worst = max(
        range(len(nodes)),
        key=lambda i: (
            abs(counts[i] - probabilities[i] * draws) / math.sqrt(probabilities[i] * draws)
        ),
    )
    return (
        f"{what} does not draw with the probabilities of outcomes(): over {draws:,} draws "
        f"{probe.name(nodes[worst])} came {counts[worst]:,} times, expected about "
        f"{probabilities[worst] * draws:,.0f} (chi-square {statistic:,.1f} with {df} "
        f"degree{'s' if df != 1 else ''} of freedom)"
    )
