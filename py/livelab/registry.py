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

OWN_PACKAGES: frozenset[str] = frozenset({"livelab"})
"""Top-level packages whose code a check must not be able to change: livelab, and every
package that registers a lab or question or is added to a registry (a course's). The grader
puts their attributes back after each check (livelab.grading_run) and the state check watches
them (livelab.worker_state). Frozen and rebound when it grows, so code under test cannot empty
it in place; rebinding it is a change to livelab that both of them see."""


def is_own(module_name: str) -> bool:
    """Whether a module belongs to livelab or to a course package (see OWN_PACKAGES)."""
    top = module_name.partition(".")[0]
    return top == "livelab" or top in OWN_PACKAGES


def _own_package(module_name: str) -> None:
    global OWN_PACKAGES
    top = module_name.partition(".")[0]
    if top and top not in OWN_PACKAGES:
        OWN_PACKAGES = OWN_PACKAGES | {top}


class Registry(Generic[T]):
    """Objects by name; `what` names one of them in messages ("lab", "code question")."""

    def __init__(self, what: str, package: str) -> None:
        self.what = what
        self.packages = [package]
        """Where modules of this registry's objects live: livelab's own package first, then
        each course package added with add_package."""
        self.items: dict[str, T] = {}
        self._loaded: set[str] = set()

    def add_package(self, package: str) -> None:
        """Look for objects in package too: every module of it is imported on first use, as
        livelab's own are, so a course package need not import its modules up front."""
        if package not in self.packages:
            self.packages.append(package)
        _own_package(package)

    def register(self, item: T) -> T:
        """Add an object under its name; another module registering the same name is an error.

        The same module registering again (a reload under `mkdocs serve`) replaces it.
        """
        old = self.items.get(item.name)
        if old is not None and old.module != item.module:
            first, second = (module.partition(".")[0] for module in (old.module, item.module))
            raise ValueError(
                f"{self.what} {item.name!r} is registered twice: by {old.module} (package "
                f"{first}) and by {item.module} (package {second}). Every {self.what} of a site "
                f"shares one name space: give one of them another name, e.g. "
                f"'{second.replace('_', '-')}-{item.name}', and use that name in its fences."
            )
        self.items[item.name] = item
        _own_package(item.module)
        return item

    def _load_builtins(self) -> None:
        for name in self.packages:
            if name not in self._loaded:
                self._loaded.add(name)
                package = importlib.import_module(name)
                for info in pkgutil.iter_modules(package.__path__):
                    importlib.import_module(f"{name}.{info.name}")

    def all(self) -> dict[str, T]:
        """Every registered object by name, in name order (built-ins and a course's own)."""
        self._load_builtins()
        return dict(sorted(self.items.items()))

    def _load_named(self, name: str) -> None:
        """Import the module of that name in each package not yet loaded whole, if it has one.

        An object usually lives in the module of its own name, so a page that shows one lab
        imports that lab's module only: in the browser every import is paid for before the
        first view, and importing the whole package doubled the first lab call.
        """
        if not name.isidentifier():
            return
        for package in self.packages:
            module = f"{package}.{name}"
            if package not in self._loaded and importlib.util.find_spec(module) is not None:
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
