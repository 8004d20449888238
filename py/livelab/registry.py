"""One registry mechanism for every extension point: labs, code questions, question kinds.

A registry holds objects by their `name`. The built-in ones register themselves when their
module is imported, and every module of the registry's package is imported the first time
the registry is read, so adding one is adding a module: there is no list to edit. A course
registers its own objects the same way from a module it names in the plugin's `modules`.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from typing import Generic, Protocol, TypeVar

from livelab.options import did_you_mean


class Registered(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def module(self) -> str: ...


T = TypeVar("T", bound=Registered)


class Registry(Generic[T]):
    """Objects by name; `what` names one of them in messages ("lab", "code question")."""

    def __init__(self, what: str, package: str) -> None:
        self.what = what
        self.package = package
        self.items: dict[str, T] = {}
        self._loaded = False

    def register(self, item: T) -> T:
        """Add an object under its name; another module registering the same name is an error.

        The same module registering again (a reload under `mkdocs serve`) replaces it.
        """
        old = self.items.get(item.name)
        if old is not None and old.module != item.module:
            raise ValueError(
                f"{self.what} {item.name!r} is registered twice ({old.module}, {item.module})"
            )
        self.items[item.name] = item
        return item

    def _load_builtins(self) -> None:
        if not self._loaded:
            self._loaded = True
            package = importlib.import_module(self.package)
            for info in pkgutil.iter_modules(package.__path__):
                importlib.import_module(f"{self.package}.{info.name}")

    def all(self) -> dict[str, T]:
        """Every registered object by name, in name order (built-ins and a course's own)."""
        self._load_builtins()
        return dict(sorted(self.items.items()))

    def _load_named(self, name: str) -> None:
        """Import the built-in module of that name, if there is one.

        A built-in usually lives in the module of its own name, so a page that shows one lab
        imports that lab's module only: in the browser every import is paid for before the
        first view, and importing the whole package doubled the first lab call.
        """
        if not name.isidentifier() or self._loaded:
            return
        module = f"{self.package}.{name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)

    def get(self, name: str) -> T:
        """The object of that name; ValueError naming the known ones (and a close one)."""
        if name not in self.items:
            self._load_named(name)
        if name in self.items:
            return self.items[name]
        known = self.all()
        if name not in known:
            raise ValueError(
                f"unknown {self.what} {name!r}{did_you_mean(str(name), list(known))}; "
                f"known {self.what}s: {', '.join(known)}"
            )
        return known[name]
