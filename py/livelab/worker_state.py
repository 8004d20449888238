"""The worker's clean state, and a check that student code left it as it was.

One interpreter serves a tab for its whole life, and a check may run any line of Python.
So before the first student code runs, the worker takes a snapshot of everything later
checks depend on; after each request that ran student code it compares the interpreter
with the snapshot, and when anything differs the worker is replaced by a fresh one.

The snapshot holds: which module object sits under each name in sys.modules (one replaced
or removed is a change; one imported since is forgotten after the request, see
forget_new_modules, so a later import loads it afresh from its file); for
every module, which object each of its attributes is, and the same for every class
defined in Python; for the livelab package, every object reachable from its modules, down
to the bytes of its arrays; interpreter-wide settings (sys.path, import hooks, the
recursion limit, trace and profile functions, monitoring tools, garbage collector
callbacks, the SIGINT handler, the working directory); and a hash of every file of the
unpacked package. References are kept, not bare ids, so a replaced object can never be
mistaken for a new one that happens to reuse its address. New audit hooks, which could
never be removed, are refused outright.

One thing of the package is left out on purpose: what an Unwatched holder holds (the
scratchpad's names, which change with every run by design). The holder itself is watched
(replacing it counts), and no check ever runs in the namespace it holds.
"""

from __future__ import annotations

import gc
import hashlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from operator import is_
from types import CodeType, FunctionType, MappingProxyType, MethodType, ModuleType
from typing import Any

import numpy as np

from livelab.registry import is_own

# Attributes that legitimately appear or change while Python runs: the registry warnings
# keeps in each module, sys's record of the last uncaught exception, and the slot names
# copyreg caches on a class the first time an instance is copied.
_VOLATILE = frozenset(
    {"__warningregistry__", "__slotnames__", "last_type", "last_value", "last_traceback",
     "last_exc"}
)  # fmt: skip
_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: attributes of such a class cannot change


class Unwatched:
    """A holder whose contents the snapshot does not look into; see the module docstring."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


@dataclass
class _Namespace:
    """The attributes of one module or class, as they were: the names and the objects."""

    owner: Any
    names: tuple[str, ...]
    values: tuple[Any, ...]

    @classmethod
    def of(cls, owner: Any) -> _Namespace:
        space = vars(owner)
        return cls(owner, tuple(space), tuple(space.values()))

    def changed(self) -> bool:
        space = vars(self.owner)
        if (
            len(space) == len(self.names)
            and all(map(is_, space.values(), self.values))
            and all(map(is_, space, self.names))
        ):
            return False
        return self._really_changed(space)

    def _really_changed(self, space: Any) -> bool:
        """The slow path: ignore volatile names and submodules imported since the snapshot."""
        for name, value in zip(self.names, self.values, strict=True):
            if name not in _VOLATILE and space.get(name, _MISSING) is not value:
                return True
        saved = set(self.names)
        prefix = f"{getattr(self.owner, '__name__', '')}."
        return any(
            not (isinstance(value, ModuleType) and value.__name__ == prefix + str(name))
            for name, value in list(space.items())
            if name not in saved and name not in _VOLATILE
        )


_MISSING = object()


def _classes(module: ModuleType) -> Iterator[type]:
    """Classes defined in Python in this module, whose attributes can be replaced."""
    for value in list(vars(module).values()):
        if (
            isinstance(value, type)
            and not value.__flags__ & _IMMUTABLE_TYPE
            and value.__module__ == module.__name__
        ):
            yield value


def _interpreter() -> tuple[Any, ...]:
    """Interpreter-wide settings a line of Python can change for everything that follows."""
    monitoring = getattr(sys, "monitoring", None)
    tools = tuple(monitoring.get_tool(i) for i in range(6)) if monitoring else ()
    return (
        tuple(sys.path),
        tuple(map(id, sys.meta_path)),
        tuple(map(id, sys.path_hooks)),
        sys.getrecursionlimit(),
        id(sys.gettrace()),
        id(sys.getprofile()),
        tools,
        id(signal.getsignal(signal.SIGINT)),
        gc.isenabled(),
        tuple(map(id, gc.callbacks)),
        os.getcwd(),
    )


def _package_objects(modules: Iterable[ModuleType]) -> list[Any]:
    """Every object reachable from the package's modules that holds other objects.

    Containers, functions, classes and instances defined in the package are entered, and
    arrays are listed for their bytes; anything else (NumPy functions, strings, numbers,
    code) is only named by identity in the facts of whatever holds it.
    """
    found: dict[int, Any] = {}
    stack: list[Any] = list(modules)
    while stack:
        obj = stack.pop()
        if id(obj) in found:
            continue
        if isinstance(obj, np.ndarray):
            found[id(obj)] = obj
            continue
        children = _children(obj)
        if children is not None:
            found[id(obj)] = obj
            stack.extend(c for c in children if type(c) not in _LEAVES)
    return list(found.values())


_LEAVES = frozenset({str, int, float, bool, bytes, type(None), CodeType, complex})


def _facts(objects: list[Any]) -> list[Any]:
    """What each object holds: ids of its contents, or for an array its dtype, shape, bytes.

    Facts are ids and hashes only, so comparing two lists runs no object's __eq__. If every
    object still holds the same objects, nothing new can have become reachable either.
    """
    facts: list[Any] = []
    for obj in objects:
        if isinstance(obj, (ModuleType, type)):
            continue  # its attributes are a _Namespace of the snapshot
        if isinstance(obj, np.ndarray):
            facts.append((obj.dtype.str, obj.shape, hash(obj.tobytes())))
        else:
            facts.append(tuple(map(id, _children(obj) or ())))
    return facts


def _children(obj: Any) -> list[Any] | None:
    """What an object of the package holds, or None for an object not entered."""
    if isinstance(obj, Unwatched):
        return None
    if isinstance(obj, (dict, MappingProxyType)):
        return [*obj.keys(), *obj.values()]
    if isinstance(obj, (list, tuple, set, frozenset)):
        return list(obj)
    if isinstance(obj, ModuleType):
        return list(vars(obj).values()) if is_own(obj.__name__) else None
    if isinstance(obj, FunctionType):
        if not is_own(obj.__module__ or ""):
            return None
        cells = [c.cell_contents for c in obj.__closure__ or () if _filled(c)]
        return [obj.__code__, obj.__defaults__, obj.__kwdefaults__, *cells]
    if isinstance(obj, (MethodType, staticmethod, classmethod)):
        return [obj.__func__]
    if isinstance(obj, property):
        return [obj.fget, obj.fset, obj.fdel]
    if isinstance(obj, partial):
        return [obj.func, obj.args, obj.keywords]
    if isinstance(obj, type):
        return list(vars(obj).values()) if is_own(obj.__module__) else None
    if is_own(type(obj).__module__):
        state = getattr(obj, "__dict__", None)
        return [state] if state is not None else None
    return None


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 -- an empty cell raises ValueError
    except ValueError:
        return False
    return True


def _package_files(root: str | None) -> tuple[tuple[str, str], ...]:
    if root is None:
        return ()
    found = []
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                found.append((path, hashlib.sha256(handle.read()).hexdigest()))
    return tuple(sorted(found))


@dataclass
class Snapshot:
    """The clean state of the interpreter, taken before any student code ran."""

    modules: dict[str, Any]
    namespaces: list[_Namespace]
    package: list[Any]
    """The package's objects that hold others; kept alive, so that no id is reused."""
    package_facts: list[Any]
    interpreter: tuple[Any, ...]
    files_root: str | None
    files: tuple[tuple[str, str], ...]

    def differences(self) -> list[str]:
        """What differs from the snapshot, as short phrases; empty when nothing does.

        A module imported since the snapshot is not a difference: after a request that ran
        student code it is forgotten (forget_new_modules), and after one that did not it
        joins the snapshot (adopt_new_modules).
        """
        found = []
        checks: list[tuple[str, Callable[[], bool]]] = [
            ("sys.modules", self._modules_changed),
            ("module attributes", self._namespaces_changed),
            ("livelab objects", lambda: _facts(self.package) != self.package_facts),
            ("interpreter settings", lambda: _interpreter() != self.interpreter),
            ("package files", lambda: _package_files(self.files_root) != self.files),
        ]
        for what, changed in checks:
            if changed():
                found.append(what)
        return found

    def _modules_changed(self) -> bool:
        current = sys.modules
        return not all(current.get(name, _MISSING) is m for name, m in self.modules.items())

    def forget_new_modules(self) -> list[str]:
        """Drop the modules imported since the snapshot, and the attributes that name them
        on their packages; return their names. Student code may have changed them, or put
        something else under a new name, before anything looked: forgotten, they are
        loaded afresh from their files by the next import, so none of that reaches a later
        check. (An ordinary import, say fractions in the scratchpad, then costs no restart.)
        """
        new = [name for name in list(sys.modules) if name not in self.modules]
        for name in new:
            module = sys.modules.pop(name, None)
            package, _, child = name.rpartition(".")
            owner = sys.modules.get(package)
            space = getattr(owner, "__dict__", None) if package else None
            if isinstance(space, dict) and space.get(child) is module:
                del space[child]
        return new

    def adopt_new_modules(self) -> None:
        """Add modules imported since the snapshot, after a request that ran no student code."""
        for name, module in list(sys.modules.items()):
            if name not in self.modules:
                self.modules[name] = module
                self.namespaces.extend(_namespaces(module))

    def _namespaces_changed(self) -> bool:
        return any(space.changed() for space in self.namespaces)


def _package_modules() -> list[ModuleType]:
    return [m for n, m in list(sys.modules.items()) if is_own(n) and isinstance(m, ModuleType)]


def _namespaces(module: object) -> list[_Namespace]:
    """The attributes of a module and of the classes it defines (not __main__'s)."""
    if not isinstance(module, ModuleType) or module.__name__ == "__main__":
        return []
    return [_Namespace.of(module), *(_Namespace.of(cls) for cls in _classes(module))]


def refuse_audit_hooks() -> None:
    """From now on, refuse every new audit hook (sys.addaudithook): none can be removed, so
    one added by student code could break every later check. Refused hooks fail silently."""

    def refuse(event: str, _args: tuple[Any, ...]) -> None:
        if event == "sys.addaudithook":
            raise RuntimeError("no audit hooks on this page")

    if not _REFUSING:
        sys.addaudithook(refuse)
        _REFUSING.append(refuse)


_REFUSING: list[Callable[..., None]] = []


def take_snapshot(files_root: str | None = None) -> Snapshot:
    """Record the clean state; files_root is the unpacked package's folder, if any."""
    modules = dict(sys.modules)
    namespaces = [space for module in modules.values() for space in _namespaces(module)]
    package = _package_objects(_package_modules())
    # Classes the package defines inside functions are not attributes of any module.
    covered = {id(space.owner) for space in namespaces}
    inner = [c for c in package if isinstance(c, type) and id(c) not in covered]
    namespaces.extend(_Namespace.of(cls) for cls in inner)
    return Snapshot(
        modules=modules,
        namespaces=namespaces,
        package=package,
        package_facts=_facts(package),
        interpreter=_interpreter(),
        files_root=files_root,
        files=_package_files(files_root),
    )
