"""A config's YAML text read strictly (no key given twice, no alias, no deep nesting), with the line of
every key for messages (config.py turns what it reads into an `Experiment`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import yaml

from bncbench.errors import UserError

#: the deepest nesting of a config's YAML (its sections need 5 levels)
MAX_DEPTH = 20


class _Refused(yaml.MarkedYAMLError):
    """YAML that a config does not allow (`_StrictLoader`)."""


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader (plain data, no Python objects) refusing what would make a config mean
    something other than it shows or grow beyond its text: a key given twice in one mapping (YAML
    would keep the last silently), an alias (`*name`: the value of an anchor again, which lets a
    few lines expand to gigabytes), nesting deeper than MAX_DEPTH."""

    depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            alias = self.peek_event()
            raise _Refused(None, None, f"alias *{alias.anchor}: a config allows no aliases (*name); write the value "
                                       f"out", alias.start_mark)
        if self.depth >= MAX_DEPTH:
            raise _Refused(None, None, f"nested more than {MAX_DEPTH} levels deep", self.peek_event().start_mark)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
            first: dict[Any, int] = {}
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                if not isinstance(key, Hashable):
                    continue  # refused by the base class ("found unhashable key")
                line = key_node.start_mark.line + 1
                if key in first:
                    where = f"on line {line}" if first[key] == line else f"on lines {first[key]} and {line}"
                    raise _Refused(None, None, f"key {key!r} is given twice, {where}; YAML would keep only the last: "
                                               f"remove one", key_node.start_mark)
                first[key] = line
        return super().construct_mapping(node, deep=deep)


def read_yaml(text: str, file: str) -> tuple[Any, yaml.Node | None]:
    """(the data, the node tree) of a config's text; UserError on malformed YAML, naming the line."""
    try:
        loader = _StrictLoader(text)  # reads the text, refusing control characters
        try:
            node = loader.get_single_node()
            return (None if node is None else loader.construct_document(node)), node
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        if isinstance(e, yaml.reader.ReaderError):  # a character YAML refuses, at a position of the text
            line = text[:e.position].count("\n") + 1
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise UserError(f"{file}{f':{line}' if line else ''}: {'' if isinstance(e, _Refused) else 'malformed YAML: '}"
                        f"{problem}") from None


class KeyLines:
    """Line numbers of YAML keys, by key path."""

    def __init__(self, node: yaml.Node | None):
        self.lines: dict[tuple, int] = {}
        if node is not None:
            self._walk(node, ())

    def _walk(self, node, path):
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                p = path + (k.value,)
                self.lines[p] = k.start_mark.line + 1
                self._walk(v, p)
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                self._walk(v, path + (i,))

    def of(self, path) -> int | None:
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path)
