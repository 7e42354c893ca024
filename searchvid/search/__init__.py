"""The domain-free search engine: nodes, events, observers, value functions, algorithms.

Nothing here knows about tiles, pixels or files.
"""

from searchvid.search.algorithm import Algorithm, algorithm_class, algorithm_names, make_algorithm
from searchvid.search.events import Event, EventKind
from searchvid.search.node import Capability, capabilities_of, require
from searchvid.search.observer import Best, BestTracker, Observer, Recorder, feed, run
from searchvid.search.values import Heuristic, ValueFunction

__all__ = [
    "Algorithm",
    "Best",
    "BestTracker",
    "Capability",
    "Event",
    "EventKind",
    "Heuristic",
    "Observer",
    "Recorder",
    "ValueFunction",
    "algorithm_class",
    "algorithm_names",
    "capabilities_of",
    "feed",
    "make_algorithm",
    "require",
    "run",
]
