"""Write runtime.lock.json and tests/tools.lock.json from package-lock.json, or check them.

package-lock.json at the top of the repository is the one source of the npm pins: npm writes
it (`npm install <name>@<version>`, then `npm ci` on a fresh clone). The Python fetcher
(livelab.builder.fetch) runs without Node for authors who only `pip install livelab`, so it
reads runtime.lock.json, which ships in the wheel; that file and the tests' tools.lock.json
are generated from the lock by this module. Run in a checkout of the repository:

    python -m livelab.builder.pins           # rewrite both files from package-lock.json
    python -m livelab.builder.pins --check   # exit 1, naming each package, if they disagree

tests/unit/test_pins.py runs the check with every test run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from livelab.builder.npm_packages import RUNTIME_PACKAGES, TOOL_PACKAGES

REPO = Path(__file__).resolve().parents[3]
PACKAGE_LOCK = "package-lock.json"
REGISTRY = "https://registry.npmjs.org/"
RUNTIME_LOCK = "py/livelab/builder/runtime.lock.json"
TOOLS_LOCK = "tests/tools.lock.json"
GENERATED = f"Generated from {PACKAGE_LOCK} by `python -m livelab.builder.pins`; do not edit."
ABOUT = {
    RUNTIME_LOCK: "The npm packages whose files the site serves, each pinned by version and "
    "sha512 integrity. `livelab fetch-runtime` (or the build, when a file is missing) downloads "
    "each tarball from the npm registry, checks it against its integrity and unpacks it into "
    f"the cache. {GENERATED}",
    TOOLS_LOCK: "npm packages the tests use and the site never serves, pinned like "
    "py/livelab/builder/runtime.lock.json and fetched by tests/tools.py through the same "
    f"verified download. {GENERATED}",
}
NAMES = {RUNTIME_LOCK: RUNTIME_PACKAGES, TOOLS_LOCK: TOOL_PACKAGES}


class PinError(RuntimeError):
    """package-lock.json lacks a package, or holds it from somewhere other than the registry."""


def locked(lock: dict, names: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """name -> {version, integrity} for each name, as package-lock.json (v2 or v3) holds it."""
    pins = {}
    for name in names:
        entry = lock.get("packages", {}).get(f"node_modules/{name}")
        if entry is None:
            raise PinError(f"{name} is not in {PACKAGE_LOCK}: add it to package.json.")
        if not str(entry.get("integrity", "")).startswith("sha512-"):
            raise PinError(f"{name} in {PACKAGE_LOCK} has no sha512 integrity.")
        pins[name] = {"version": entry["version"], "integrity": entry["integrity"]}
    return pins


def generated(lock: dict, target: str) -> str:
    """The text of one generated lock file (RUNTIME_LOCK or TOOLS_LOCK)."""
    content: dict[str, object] = {"about": ABOUT[target]}
    if target == RUNTIME_LOCK:
        content["registry"] = REGISTRY
    content["npm"] = locked(lock, NAMES[target])
    return json.dumps(content, indent=2) + "\n"


def disagreements(lock: dict, target: str, current: dict) -> list[str]:
    """One line per package whose pin in current (a generated file) is not the lock's."""
    wanted = locked(lock, NAMES[target])
    have = current.get("npm", {})
    lines = []
    for name in sorted(wanted.keys() | have.keys()):
        if name not in have:
            lines.append(f"{target}: {name} is missing ({PACKAGE_LOCK} has it)")
        elif name not in wanted:
            lines.append(f"{target}: {name} is not one of {NAMES[target]}")
        else:
            lines += [
                f"{target}: {name} {key} is {have[name].get(key)}, "
                f"{PACKAGE_LOCK} has {wanted[name][key]}"
                for key in ("version", "integrity")
                if have[name].get(key) != wanted[name][key]
            ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m livelab.builder.pins", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    parser.add_argument("--root", type=Path, default=REPO, help="the repository's top folder")
    args = parser.parse_args(argv)
    lock = json.loads((args.root / PACKAGE_LOCK).read_text(encoding="utf-8"))
    problems = []
    for target in NAMES:
        path = args.root / target
        if args.check:
            problems += disagreements(lock, target, json.loads(path.read_text(encoding="utf-8")))
        else:
            path.write_text(generated(lock, target), encoding="utf-8")
    print("\n".join(problems) or ("pins agree" if args.check else "pins written"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
