"""The ``modlights ...`` commands the documentation shows are commands the parser
accepts as written: the pages under docs/, the README, the shipped level pack's header
and the examples of every ``modlights COMMAND --help``. (A spelling the grammar refuses,
such as ``hardest --budget 60`` for sixty seconds, fails here; running the commands is
the business of the tests of each command.)"""

from __future__ import annotations

import argparse
import contextlib
import io
import pathlib
import re
import shlex

import pytest

from modlights.cli import build_parser

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: placeholders the pages write where a value goes
PLACEHOLDERS = {"COMMAND"}


def commands_in(text: str, markdown: bool = True) -> list[str]:
    """``modlights ...`` commands of a text: Markdown code spans of more than a command
    name, and lines of fenced code blocks (all lines of a --help epilog; comment lines
    "...: modlights ..." of a text file), without trailing comments and shell plumbing."""
    found = [c for c in re.findall(r"`(modlights [^`]+)`", text) if len(c.split()) > 2]
    if markdown:
        lines = [
            ln
            for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
            for ln in block.splitlines()
        ]
    else:
        lines = [
            ln.split(":", 1)[1] if ln.startswith("#") and ":" in ln else ln
            for ln in text.splitlines()
        ]
    for line in lines:
        for part in re.split(r"&&|\|", line):
            part = part.strip()
            if part.startswith("modlights "):
                found.append(part)
    out = []
    for cmd in found:
        cmd = re.split(r"\s#|\s>|\s{2,}", cmd)[0].strip()
        words = shlex.split(cmd)
        if len(words) < 2 or words[1] in PLACEHOLDERS:
            continue
        if any(w.endswith("...") for w in words):
            continue  # an elided command ("--locked ... --holes ...")
        out.append(cmd)
    return out


def sources() -> list[tuple[str, str, bool]]:
    """(where, text, is Markdown) of every text that shows commands."""
    pages = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
    texts = [(p.relative_to(ROOT).as_posix(), p.read_text(), True) for p in pages]
    texts.append(("examples/levels.txt", (ROOT / "examples" / "levels.txt").read_text(), False))
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                texts.append((f"modlights {name} --help", sub.epilog or "", False))
    texts.append(("modlights --help", parser.epilog or "", False))
    return texts


CASES = [(where, cmd) for where, text, md in sources() for cmd in commands_in(text, md)]


def test_the_documentation_shows_commands():
    wheres = {where for where, _ in CASES}
    assert {"docs/getting-started.md", "README.md", "examples/levels.txt"} <= wheres
    assert "modlights hardest --help" in wheres and "docs/tutorials/hardest-boards.md" in wheres
    assert len(CASES) > 30


@pytest.mark.parametrize("where,command", CASES)
def test_documented_command_parses(where, command):
    parser = build_parser()
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            args = parser.parse_args(shlex.split(command)[1:])
    except SystemExit as e:
        assert e.code == 0, f"{where}: {command!r}: {err.getvalue().strip()}"
        return  # --help, --version
    assert args.command == shlex.split(command)[1]
