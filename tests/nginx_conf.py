"""A reader of nginx configuration files, enough for deploy/nginx.conf: directives (name and
arguments) and blocks, comments dropped, quotes kept as one argument."""

from __future__ import annotations

import re
from dataclasses import dataclass

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[{};]|[^\s{};"\']+')


@dataclass
class Directive:
    name: str
    args: list[str]
    block: list[Directive] | None = None

    def all(self, name: str) -> list[Directive]:
        return [d for d in self.block or [] if d.name == name]

    def one(self, name: str) -> Directive:
        found = self.all(name)
        assert len(found) == 1, f"{len(found)} {name!r} in {self.name} {' '.join(self.args)}"
        return found[0]

    def value(self, name: str) -> str:
        return " ".join(self.one(name).args)

    def location(self, path: str) -> Directive:
        found = [d for d in self.all("location") if d.args == [path]]
        assert len(found) == 1, f"location {path}"
        return found[0]


def parse(text: str) -> Directive:
    text = "\n".join(re.sub(r"(^|\s)#.*$", "", line) for line in text.splitlines())
    tokens = [t.strip("\"'") if t[0] in "\"'" else t for t in TOKEN.findall(text)]
    root = Directive("main", [], [])
    stack, words = [root], []
    for token in tokens:
        if token == ";":
            stack[-1].block.append(Directive(words[0], words[1:]))
            words = []
        elif token == "{":
            block = Directive(words[0], words[1:], [])
            stack[-1].block.append(block)
            stack.append(block)
            words = []
        elif token == "}":
            assert not words, f"unterminated directive {words}"
            stack.pop()
        else:
            words.append(token)
    assert len(stack) == 1 and not words, "unbalanced braces"
    return root


def seconds(value: str) -> float:
    """nginx time: 10s, 1m, 3600, 1h."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value).groups()
    return int(number) * units[unit or "s"]
