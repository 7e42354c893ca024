"""searchvid: turn tree searches on board games and puzzles into videos."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("searchvid")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
