"""Fence bodies read as YAML 1.2 (its core schema), not PyYAML's YAML 1.1.

YAML 1.1 reads `answer: 010` as 8 (octal), `id: no` as false and `answer: 1e-3` as a
string. In YAML 1.2, which authors and editors expect, those are 10, the text "no" and
0.001: only true/false are booleans, numbers are decimal unless they say 0o or 0x, and an
exponent needs no decimal point.
"""

from __future__ import annotations

import re

import yaml

BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
REPLACED = {"tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}


class FenceLoader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 core-schema scalars."""


FenceLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in REPLACED]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for tag, pattern, firsts in (
    ("tag:yaml.org,2002:bool", BOOL, "tTfF"),
    ("tag:yaml.org,2002:int", INT, "-+0123456789"),
    ("tag:yaml.org,2002:float", FLOAT, "-+0123456789."),
):
    FenceLoader.add_implicit_resolver(tag, pattern, list(firsts))


def _int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith(("0o", "0x")):
        return int(text, 0)
    return int(text, 10)


def _float(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> float:
    text = str(loader.construct_scalar(node)).lower()
    return float(text.replace(".inf", "inf").replace(".nan", "nan"))


FenceLoader.add_constructor("tag:yaml.org,2002:int", _int)
FenceLoader.add_constructor("tag:yaml.org,2002:float", _float)


def load(source: str) -> object:
    """A fence body as data, with YAML 1.2 scalars."""
    return yaml.load(source, Loader=FenceLoader)
