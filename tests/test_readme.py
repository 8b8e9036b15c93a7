"""The README's Python tour runs as written."""

from __future__ import annotations

import pathlib
import re

from page_blocks import run_blocks

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_readme_tour_runs():
    # a failure names README.md's line of the failing statement (tests/page_blocks.py)
    assert run_blocks(README) >= 1, "the README has no python example"


def test_readme_check_command_runs_on_the_shipped_level_pack(capsys, monkeypatch):
    """`modlights check examples/levels.txt`, as the README writes it, from the
    repository root: every shipped level is good (exit 0)."""
    import shlex

    from modlights.cli import main

    text = README.read_text()
    commands = [
        line.split("#", 1)[0].strip()
        for line in text.splitlines()
        if line.strip().startswith("modlights check ")
    ]
    assert commands, "the README shows no 'modlights check' command"
    monkeypatch.chdir(README.parent)
    for command in commands:
        argv = shlex.split(command)[1:]
        assert (README.parent / argv[-1]).is_file(), f"{argv[-1]} is not shipped"
        rc = main(argv)
        out = capsys.readouterr().out
        assert rc == 0, out
        assert " 0 bad" in out and "BAD" not in out


def test_readme_hint_is_not_tapped_twice():
    text = README.read_text()
    assert "g.tap(g.hint())" not in text  # hint() already taps


def test_package_ships_license_and_py_typed():
    import modlights

    root = README.parent
    assert "MIT" in (root / "LICENSE").read_text()
    assert (pathlib.Path(modlights.__file__).parent / "py.typed").is_file()


def test_readme_links_exist():
    """Every relative link of the README (the documentation's pages) is in the tree."""

    text = README.read_text()
    links = [t for t in re.findall(r"\]\(([^)#]+)", text) if "://" not in t]
    links += re.findall(r'<img src="([^"]+)"', text)
    assert links, "the README links to no page"
    missing = [t for t in links if not (README.parent / t).exists()]
    assert missing == [], f"README links to missing files: {missing}"


def test_readme_shell_commands_parse():
    """The README's `modlights ...` lines are commands the parser accepts."""
    import shlex

    from modlights.cli import build_parser

    parser = build_parser()
    commands = [
        line.split("#", 1)[0].strip()
        for line in README.read_text().splitlines()
        if line.startswith("modlights ")
    ]
    assert commands
    for command in commands:
        args = parser.parse_args(shlex.split(command)[1:])  # SystemExit on a bad one
        assert args.command == shlex.split(command)[1]
