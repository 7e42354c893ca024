"""Named plugins: built-in classes, installed entry points and ``"module:Class"`` import paths.

Domains and algorithms are found the same way (the pattern of Gymnasium's ``entry_point``
strings and pytest's plugins):

- a **built-in** name such as ``"railroad"``, or one of the aliases its class declares;
- an **entry point** of an installed package, in the group ``searchvid.domains`` or
  ``searchvid.algorithms``: its name is the scene's name, its value ``"module:Class"``;
- an **import path** ``"module:Class"`` (``"package.module:Class"``), imported with the
  scene file's folder first on the import path. Naming a module runs its code.

A plugin that fails to load is reported by name, with the reason, and never breaks the
listing of the others.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import sys
import typing
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Generic, TypeVar

from searchvid.errors import OptionError
from searchvid.usercode import culprit, exception_text, is_interrupt, remember_plugin

T = TypeVar("T")


class PluginError(OptionError):
    """A name that names nothing, or a plugin that cannot be loaded (an :class:`OptionError`
    whose key is the scene key holding the name)."""


def is_import_path(name: str) -> bool:
    """Whether ``name`` is a ``"module:Class"`` import path rather than a registered name."""
    return ":" in name


@contextmanager
def import_folder(folder: Path | None) -> Iterator[None]:
    """Put ``folder`` first on ``sys.path`` while the block runs (None: change nothing)."""
    if folder is None:
        yield
        return
    entry = str(folder.resolve())
    sys.path.insert(0, entry)
    try:
        yield
    finally:
        with suppress(ValueError):  # the imported code took it out itself
            sys.path.remove(entry)


def load_import_path(text: str, *, folder: Path | None = None) -> Any:
    """The object named by ``"module:attribute"``, importing the module.

    Args:
        text: ``"module:Class"``; the module may be dotted, the attribute too.
        folder: Searched first for the module (a scene's own folder).

    Raises:
        ImportError: With a plain message: no such module, no such attribute, or the
            module's own error while importing, with its line (``importing 'connect4'
            failed: connect4.py:5: SystemExit(3)``). A module that calls ``sys.exit()`` or
            raises any ``BaseException`` fails the same way; only Ctrl-C and signals pass.
    """
    module_name, _, attribute = text.partition(":")
    if not module_name or not attribute:
        raise ImportError(f"{text!r} is not of the form 'module:Class'")
    with import_folder(folder):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name is not None and module_name.startswith(error.name):
                where = f" (looked in {folder} and the installed packages)" if folder else ""
                raise ImportError(f"no module named {error.name!r}{where}") from None
            raise ImportError(_import_failure(module_name, error)) from None
        except BaseException as error:  # the module's own code failed, or exited
            if is_interrupt(error):
                raise
            raise ImportError(_import_failure(module_name, error)) from None
    found: Any = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise ImportError(f"module {module_name!r} has no attribute {attribute!r}") from None
    return found


def _import_failure(module: str, error: BaseException) -> str:
    """``importing 'game' failed: game.py:5: SystemExit(3)``: what the module raised, where."""
    where = culprit(error)
    at = f"{where}: " if where is not None else ""
    return f"importing {module!r} failed: {at}{exception_text(error)}"


class PluginRegistry(Generic[T]):
    """Resolves names of one kind of plugin (domains, algorithms) to classes.

    Args:
        what: What the plugins are, for messages ("domain", "algorithm").
        key: The scene key that holds the name ("name", "algorithm"), for errors.
        base: The class every plugin must subclass.
        builtins: Built-in names to ``"module:Class"``, imported only when used.
        group: The entry-point group of installed plugins.
    """

    def __init__(
        self, *, what: str, key: str, base: type[Any], builtins: dict[str, str], group: str
    ) -> None:
        self.what = what
        self.key = key
        self.base: type[Any] = base  # abstract classes are welcome here
        self.builtins = dict(builtins)
        self.group = group

    def builtin_names(self) -> list[str]:
        """The built-in names, sorted."""
        return sorted(self.builtins)

    def entry_point_names(self) -> list[str]:
        """Names registered by installed packages, sorted (built-in names win a clash)."""
        found = {name for name, _ in _entry_points(self.group)}
        return sorted(found - set(self.builtins))

    def names(self) -> list[str]:
        """Every registered name (built-in and entry points, without aliases), sorted."""
        return sorted({*self.builtins, *self.entry_point_names()})

    def resolve(self, name: str, *, folder: Path | None = None) -> type[T]:
        """The class named by ``name``: a registered name, an alias or an import path.

        Args:
            name: As written in a scene.
            folder: The scene's folder, searched first for an import path's module.

        Raises:
            PluginError: Unknown name (listing the known ones), or a plugin that cannot be
                loaded or is not a subclass of :attr:`base`.
        """
        if is_import_path(name):
            return self._load(name, name, folder, plugin=True)
        if name in self.builtins:  # the installed packages are not looked at
            return self._load(name, self.builtins[name], None)
        for _, value in _entry_points(self.group, name):
            return self._load(name, value, None, plugin=True)
        for known in self.builtin_names():
            cls = self._load(known, self.builtins[known], None)
            if name in getattr(cls, "aliases", ()):
                return cls
        listed = ", ".join(self.names())
        raise PluginError(
            self.key,
            f"unknown {self.what} {name!r}; known: {listed}; "
            f"or name a class by import path 'module:Class'",
        )

    def check_class(self, cls: type[Any]) -> None:
        """Refuse a plugin class that cannot be built: abstract, or without an options
        dataclass (where the base class declares ``options_type``).

        Args:
            cls: A subclass of :attr:`base`.

        Raises:
            PluginError: Naming the class and what it lacks.
        """
        name = cls.__qualname__
        if inspect.isabstract(cls):
            missing = ", ".join(f"{m}()" for m in sorted(getattr(cls, "__abstractmethods__", ())))
            raise PluginError(
                self.key,
                f"{name} is an abstract class: it does not implement {missing} "
                f"(a {self.what} implements every abstract method of {self.base.__name__})",
            )
        if "options_type" not in getattr(self.base, "__annotations__", {}):
            return
        options = getattr(cls, "options_type", None)
        if not (isinstance(options, type) and dataclasses.is_dataclass(options)):
            got = "nothing" if options is None else _shown_class(options)
            raise PluginError(
                self.key,
                f"{name}.options_type must be a dataclass "
                f"(@dataclass(frozen=True, kw_only=True)), got {got}",
            )
        try:
            typing.get_type_hints(options)
        except Exception as error:  # annotations naming what the module does not define
            raise PluginError(
                self.key,
                f"the annotations of {name}.options_type ({options.__qualname__}) cannot be "
                f"resolved: {exception_text(error)}",
            ) from None

    def _load(
        self, name: str, target: str, folder: Path | None, *, plugin: bool = False
    ) -> type[T]:
        if plugin:  # its code is the user's, wherever it is installed
            remember_plugin(target.partition(":")[0])
        try:
            found = load_import_path(target, folder=folder)
        except ImportError as error:
            raise PluginError(self.key, f"cannot load {self.what} {name!r}: {error}") from None
        if not (isinstance(found, type) and issubclass(found, self.base)):
            base = f"{self.base.__module__.split('.')[0]}.{self.base.__name__}"
            raise PluginError(
                self.key, f"{target!r} is not a {self.what}: it must be a subclass of {base}"
            )
        if plugin:
            remember_plugin(found.__module__)  # the class may live in another package
            self.check_class(found)
        return found


def _entry_points(group: str, name: str | None = None) -> list[tuple[str, str]]:
    """The installed entry points of ``group`` (only those called ``name``, if given), as
    ``(name, "module:Class")`` pairs.

    ``importlib.metadata`` is imported here, when a name is not built in or the names are
    listed: its import alone took 35 ms, a quarter of the start-up allowed (issue 22).
    """
    from importlib.metadata import entry_points

    found = entry_points(group=group) if name is None else entry_points(group=group, name=name)
    return [(ep.name, ep.value) for ep in found]


def _shown_class(value: Any) -> str:
    if isinstance(value, type):
        return f"the class {value.__qualname__}, which is not one"
    return f"{value!r} (a {type(value).__name__}), not a class"
