"""The user's code: telling it apart from searchvid's, and naming the line that failed.

A domain, view or algorithm written outside the package runs inside searchvid's loops. When
it raises, the error belongs to its author, so the one-line message names the author's line,
not searchvid::

    connect4.py:88 in ConnectFour.children(): IndexError: list index out of range

:func:`blame` finds that line in a traceback: the innermost frame of code that is neither
searchvid's nor the Python standard library's nor an installed third-party package's, among
the frames searchvid called. When the user's code called into the standard library (or
numpy) and that raised, the user's own frame is the one named. Modules that searchvid loaded
as plugins (by import path or entry point) count as the user's wherever they are installed.

What the user's code *returns* is checked where it enters searchvid (``children()`` in
:mod:`searchvid.search.node`, grids in :mod:`searchvid.render.view`, value functions in
:func:`checked_functions`); those checks name the method with :func:`method_location`.
"""

from __future__ import annotations

import inspect
import math
import numbers
import sys
import sysconfig
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import CodeType, FrameType, TracebackType
from typing import Any

from searchvid.errors import UserCodeError

DEBUG_HINT = "SEARCHVID_DEBUG=1 shows the traceback"
"""Appended by the command line to errors raised in the user's code."""

_PACKAGE = "searchvid"
_PACKAGE_DIR = Path(__file__).resolve().parent
_plugin_packages: set[str] = set()
_SHOWN_WIDTH = 40
_LABEL_WIDTH = 60


@dataclass(frozen=True)
class Location:
    """A line of the user's code.

    Attributes:
        file: The file as shown: relative to the current folder when below it, else absolute.
        line: The line number; None where the code has no line of its own (generated methods
            such as a dataclass's ``__eq__``).
        function: The qualified name (``ConnectFour.children``); None at module level.
        call: Whether ``function`` is called (shown with ``()``) rather than an attribute.
    """

    file: str
    line: int | None
    function: str | None
    call: bool = True

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        if self.function is None:
            return where
        return f"{where} in {self.function}()" if self.call else f"{where} in {self.function}"


def remember_plugin(module: str) -> None:
    """Count the package of ``module`` (a plugin searchvid imported) as the user's code, even
    where it is installed among third-party packages."""
    top = module.partition(".")[0]
    if top in sys.stdlib_module_names:
        return
    if top and top != _PACKAGE and top not in _plugin_packages:
        _plugin_packages.add(top)
        _module_kind.cache_clear()


def culprit(error: BaseException) -> Location | None:
    """The innermost line of the user's code in ``error``'s traceback, or None.

    Only frames that searchvid called count: the frames before the first searchvid frame
    are the caller's (a script using the library), not code searchvid ran.
    """
    inside = False
    found: Location | None = None
    for frame, line in _frames(error.__traceback__):
        kind = _kind(frame)
        if kind == "searchvid":
            inside = True
        elif inside and kind == "user":
            found = _frame_location(frame, line)
    return found


def blame(error: BaseException) -> UserCodeError | None:
    """``error`` as a :class:`~searchvid.errors.UserCodeError` naming the user's line that
    raised it, or None when the user's code is not in its traceback (a searchvid bug)."""
    if isinstance(error, UserCodeError):
        return error
    where = culprit(error)
    if where is None:
        return None
    return UserCodeError(str(where), exception_text(error), raised=True)


def describe_failure(error: BaseException, *, hint: bool = True) -> str:
    """The one line for an unexpected error: the user's line that raised it (a domain's,
    view's or algorithm's code outside searchvid, with :data:`DEBUG_HINT` unless ``hint`` is
    false), else the error searchvid raised on purpose, else an internal error of searchvid.
    """
    from searchvid.errors import SearchvidError

    found = blame(error)
    if found is not None:
        return f"{found} ({DEBUG_HINT})" if hint and found.raised else str(found)
    if isinstance(error, SearchvidError):
        return str(error)
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return f"{where}{error.strerror or error}"
    return f"internal error: {type(error).__name__}: {error}"


def exception_text(error: BaseException) -> str:
    """``IndexError: list index out of range``, ``KeyError: 'x'``, ``SystemExit(3)``."""
    kind = type(error).__name__
    if isinstance(error, SystemExit):
        return f"{kind}({error.code!r})" if error.code is not None else f"{kind}()"
    text = str(error)
    return f"{kind}: {text}" if text else kind


def is_interrupt(error: BaseException) -> bool:
    """Whether ``error`` stops the process on the user's request (Ctrl-C or a signal), so it
    must pass through rather than be reported as the failure of some code."""
    from searchvid.signals import Terminated

    return isinstance(error, KeyboardInterrupt | Terminated | GeneratorExit)


def method_location(obj: Any, name: str) -> Location:
    """Where ``type(obj).<name>`` is defined, as ``game.py:14 in Board.children()``; for an
    attribute that is not a function (``shape``), the class's file: ``game.py in View.shape``."""
    cls = type(obj)
    attribute = inspect.getattr_static(cls, name, None)
    call = not isinstance(attribute, property)
    if isinstance(attribute, property):
        attribute = attribute.fget
    elif isinstance(attribute, staticmethod | classmethod):
        attribute = attribute.__func__
    code = _code_of(attribute)
    if code is not None and not code.co_filename.startswith("<"):
        file = _shown_file(code.co_filename)
        return Location(file, code.co_firstlineno, code.co_qualname, call)
    call = call and callable(attribute) and not isinstance(attribute, type)
    return Location(_module_file(cls.__module__), None, f"{cls.__qualname__}.{name}", call)


def function_location(function: Any) -> Location:
    """Where the function ``function`` is defined (a method, a lambda, a ``partial``)."""
    code = _code_of(function)
    if code is not None and not code.co_filename.startswith("<"):
        return Location(_shown_file(code.co_filename), code.co_firstlineno, code.co_qualname)
    module = getattr(function, "__module__", None) or type(function).__module__
    name = getattr(function, "__qualname__", None) or type(function).__qualname__
    return Location(_module_file(module), None, name)


def is_user_class(cls: type) -> bool:
    """Whether ``cls`` is the user's code: defined outside searchvid, the standard library and
    the installed third-party packages (or in a package searchvid loaded as a plugin)."""
    module = getattr(cls, "__module__", "") or ""
    return _module_kind(module, _module_file_path(module)) == "user"


def shown(value: Any) -> str:
    """A returned value for messages: ``None``, ``1.5``, ``[[0, 1]] (a list)``."""
    if value is None or type(value) in (bool, float):
        return repr(value)
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real problem
        text = "?"
    text = " ".join(text.split())
    if len(text) > _SHOWN_WIDTH:
        text = text[: _SHOWN_WIDTH - 3] + "..."
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    return f"{text} ({article} {kind})"


def checked_functions(
    functions: Mapping[str, Callable[[Any], Any]],
    *,
    what: str,
    label: Callable[[Any], str],
    source: Callable[[Any], Location] | None = None,
) -> dict[str, Callable[[Any], float]]:
    """Value functions or heuristics, each checked on every call: a result that is not a
    finite number raises :class:`~searchvid.errors.UserCodeError` naming the function and
    the node (by ``label``), before an algorithm ranks by it or a frame shows it.

    Args:
        functions: By name, as the domain offers them.
        what: ``"value function"`` or ``"heuristic"``, for messages.
        label: The domain's label of a node (its failures are ignored).
        source: Where a bad value comes from, given the node (default: the function's own
            definition); searchvid's generic ``reward`` value names the node's ``reward()``.

    Returns:
        The checked functions by name; a finite float passes at the cost of one call and one
        subtraction.
    """
    return {
        name: _checked(name, function, what, label, source) for name, function in functions.items()
    }


def _checked(
    name: str,
    function: Callable[[Any], Any],
    what: str,
    label: Callable[[Any], str],
    source: Callable[[Any], Location] | None,
) -> Callable[[Any], float]:
    def checked(node: Any) -> float:
        value = function(node)
        # finite floats pass with one subtraction: inf - inf and nan - nan are nan
        if type(value) is float and value - value == 0.0:
            return value
        return refuse_or_convert(value, node)

    def refuse_or_convert(value: Any, node: Any) -> float:
        if isinstance(value, numbers.Real) and math.isfinite(value):
            return float(value)
        problem = f"{what} {name!r} returned {shown(value)}; it must return a finite number"
        where = source(node) if source is not None else function_location(function)
        raise UserCodeError(str(where), problem, node=node, position=safe_label(label, node))

    checked.__wrapped__ = function  # type: ignore[attr-defined]
    return checked


def safe_label(label: Callable[[Any], str], node: Any) -> str:
    """``label(node)`` for an error message; never raises (a failing label is the lesser
    problem)."""
    try:
        text = label(node)
    except Exception:
        text = None
    if not isinstance(text, str) or not text.strip():
        try:
            text = repr(node)
        except Exception:
            text = f"<{type(node).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= _LABEL_WIDTH else text[: _LABEL_WIDTH - 3] + "..."


# --- frames --------------------------------------------------------------------------------


def _frames(tb: TracebackType | None) -> Iterator[tuple[FrameType, int]]:
    while tb is not None:
        yield tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next


def _kind(frame: FrameType) -> str:
    """``"searchvid"``, ``"library"`` (the standard library, installed packages) or
    ``"user"``, by the frame's module (its file where the module has no name)."""
    module = frame.f_globals.get("__name__")
    if not isinstance(module, str):
        return _file_kind(frame.f_code.co_filename)
    file = frame.f_globals.get("__file__")
    return _module_kind(module, file if isinstance(file, str) else frame.f_code.co_filename)


def _frame_location(frame: FrameType, line: int) -> Location:
    code = frame.f_code
    if not code.co_filename.startswith("<"):
        function = None if code.co_name == "<module>" else code.co_qualname
        return Location(_shown_file(code.co_filename), line, function)
    # generated code (a dataclass's __eq__, __hash__): the module's file, the class's name
    module = frame.f_globals.get("__name__")
    owner = frame.f_locals.get("self")
    name = f"{type(owner).__qualname__}.{code.co_name}" if owner is not None else code.co_name
    return Location(_module_file(module if isinstance(module, str) else ""), None, name)


@cache
def _module_kind(module: str, file: str | None) -> str:
    top = module.partition(".")[0]
    if top == _PACKAGE:
        return "searchvid"
    if top in sys.stdlib_module_names:  # never the user's, even if a scene named it
        return "library"
    if top in _plugin_packages:
        return "user"
    return _file_kind(file) if file is not None else "user"


@cache
def _file_kind(file: str) -> str:
    if file.startswith("<"):  # frozen modules, exec'd strings
        return "library"
    path = Path(file)
    if {"site-packages", "dist-packages"} & set(path.parts):
        return "library"
    resolved = path.resolve()
    if resolved.is_relative_to(_PACKAGE_DIR):  # run as __main__ (python -m searchvid)
        return "searchvid"
    for root in _library_roots():
        if resolved.is_relative_to(root):
            return "library"
    return "user"


@cache
def _library_roots() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple(Path(paths[name]).resolve() for name in names if name in paths)


def _code_of(function: Any) -> CodeType | None:
    seen = 0
    while function is not None and seen < 10:  # partials and wrappers, a few levels deep
        code = getattr(function, "__code__", None)
        if isinstance(code, CodeType):
            return code
        function = getattr(function, "__wrapped__", None) or getattr(function, "func", None)
        seen += 1
    return None


def _module_file_path(module: str) -> str | None:
    found = sys.modules.get(module)
    file = getattr(found, "__file__", None)
    return file if isinstance(file, str) else None


def _module_file(module: str) -> str:
    file = _module_file_path(module)
    return _shown_file(file) if file is not None else module or "?"


def _shown_file(file: str) -> str:
    path = Path(file)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)
