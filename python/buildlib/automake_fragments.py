"""Read libpagani's Automake fragments (Makefile.am and the local.mk files
it includes), so that the Python build compiles exactly the files the
autotools build does: one list of sources, kept in those fragments.

Only the small part of Automake that the fragments use is understood:
``VAR = ...`` and ``VAR += ...``, ``if COND`` / ``if !COND`` / ``else`` /
``endif``, ``include FILE``, backslash continuations, ``$(VAR)``
references, and rules (``target: deps`` followed by tab-indented recipe
lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional

_REFERENCE = re.compile(r"\$\(([A-Za-z0-9_@]+)\)")


@dataclass
class Fragments:
    """The variables and rules of the active branches of the fragments."""

    variables: Dict[str, str] = field(default_factory=dict)
    rules: Dict[str, List[str]] = field(default_factory=dict)

    def expand(self, text: str, extra: Mapping[str, str] = {}) -> str:
        """Replaces every $(VAR) by its value (undefined ones by "")."""
        for _ in range(32):
            new = _REFERENCE.sub(
                lambda m: extra.get(m.group(1),
                                    self.variables.get(m.group(1), "")),
                text)
            if new == text:
                return new
            text = new
        raise ValueError("variable references nest too deep: " + text)

    def words(self, name: str, extra: Mapping[str, str] = {}) -> List[str]:
        """The expanded words of variable `name`."""
        return self.expand(self.variables.get(name, ""), extra).split()


def _logical_lines(path: Path) -> List[str]:
    lines, pending = [], ""
    for raw in path.read_text().splitlines():
        if raw.endswith("\\"):
            pending += raw[:-1] + " "
            continue
        lines.append(pending + raw)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def read_fragments(top: Path, conditions: Mapping[str, bool]) -> Fragments:
    """Reads top/Makefile.am and its includes with the Automake
    conditionals set as in `conditions` (a name not given is false)."""
    result = Fragments()
    _read(top, top / "Makefile.am", conditions, result)
    return result


def _read(top: Path, path: Path, conditions: Mapping[str, bool],
          out: Fragments) -> None:
    active: List[bool] = []
    rule: Optional[List[str]] = None
    for line in _logical_lines(path):
        if line.startswith("\t"):
            if rule is not None and all(active):
                rule.append(line.strip())
            continue
        rule = None
        stripped = line.split("#", 1)[0].strip()
        if not stripped:
            continue
        word = stripped.split()
        if word[0] == "if":
            name = word[1]
            value = conditions.get(name.lstrip("!"), False)
            active.append(not value if name.startswith("!") else value)
        elif word[0] == "else":
            active[-1] = not active[-1]
        elif word[0] == "endif":
            active.pop()
        elif not all(active):
            continue
        elif word[0] == "include":
            _read(top, top / word[1], conditions, out)
        elif re.match(r"^[A-Za-z0-9_]+\s*\+=", stripped):
            name, value = stripped.split("+=", 1)
            old = out.variables.get(name.strip(), "")
            out.variables[name.strip()] = (old + " " + value.strip()).strip()
        elif re.match(r"^[A-Za-z0-9_]+\s*=", stripped):
            name, value = stripped.split("=", 1)
            out.variables[name.strip()] = value.strip()
        elif ":" in stripped:
            target = stripped.split(":", 1)[0].strip()
            rule = out.rules.setdefault(target, [])
