"""Sphinx directive ``modlights-cli``: the command-line reference from the argparse
parsers themselves (``modlights.cli.build_parser``), so the page cannot drift from
``modlights COMMAND --help``.

For the top-level parser and every subcommand it writes a section: the usage line,
the description, the options (flags, metavar, choices, default, help) as a table and
the epilog (the examples). Output is deterministic: the usage is wrapped at a fixed
width whatever the terminal.
"""
from __future__ import annotations

import argparse
import os

#: The width usage lines are wrapped at (argparse reads COLUMNS).
WIDTH = 88


def _escape(text: str) -> str:
    """Text for an rST table cell or paragraph: no markup read into it."""
    for ch in "\\*`|_":
        text = text.replace(ch, "\\" + ch)
    return " ".join(text.split())


def _formatter(parser: argparse.ArgumentParser) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(parser.prog, width=WIDTH, max_help_position=24)


def _option_row(parser: argparse.ArgumentParser, action: argparse.Action) -> tuple[str, str]:
    fmt = _formatter(parser)
    names = fmt._format_action_invocation(action)
    text = fmt._expand_help(action) if action.help else ""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        choices = ", ".join(map(str, action.choices))
        if "{" not in names and choices not in text:
            text += f" (one of: {choices})"
    return names, text


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append((name, sub, helps.get(name, "")))
    return out


def parser_rst(parser: argparse.ArgumentParser, title: str, underline: str,
               summary: str = "") -> list[str]:
    """rST lines for one parser: a section with its usage, description and options."""
    lines = [title, underline * len(title), ""]
    if summary:
        lines += [_escape(summary), ""]
    usage = _formatter(parser)
    usage.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    lines += ["::", ""] + ["   " + ln for ln in usage.format_help().rstrip().splitlines()] + [""]
    if parser.description:
        lines += [_escape(parser.description), ""]
    rows = [_option_row(parser, a) for a in parser._actions
            if a.help is not argparse.SUPPRESS
            and not isinstance(a, argparse._SubParsersAction)]
    if rows:
        lines += [".. list-table::", "   :header-rows: 1", "   :widths: 35 65", "",
                  "   * - option", "     - meaning"]
        for names, text in rows:
            lines += [f"   * - ``{names}``", f"     - {_escape(text) or '..'}"]
        lines.append("")
    if parser.epilog:
        lines += ["::", ""] + ["   " + ln for ln in parser.epilog.strip().splitlines()] + [""]
    return lines


def shared_options(parser: argparse.ArgumentParser) -> dict[str, dict[str, list[str]]]:
    """Every option of two or more commands: {flag: {metavar: [commands]}}, in the
    order the commands and their options come. One metavar a flag is the grammar's
    rule; a second one (a list of the same values, or one form of two) shows here."""
    seen: dict[str, dict[str, list[str]]] = {}
    for name, sub, _ in _subcommands(parser):
        for action in sub._actions:
            if action.help is argparse.SUPPRESS or not action.option_strings:
                continue
            if isinstance(action, argparse._HelpAction):
                continue
            metavar = action.metavar if isinstance(action.metavar, str) else ""
            for flag in action.option_strings:
                if flag.startswith("--"):
                    seen.setdefault(flag, {}).setdefault(metavar, []).append(name)
    return {f: m for f, m in seen.items() if sum(len(c) for c in m.values()) > 1}


def shared_rst(parser: argparse.ArgumentParser) -> list[str]:
    """rST lines: the table of the options several commands share (their one grammar)."""
    title = "Options shared by several commands"
    lines = [title, "-" * len(title), "",
             "Each means the same in every command that takes it.", "",
             ".. list-table::", "   :header-rows: 1", "   :widths: 30 70", "",
             "   * - option", "     - commands"]
    for flag, forms in shared_options(parser).items():
        for metavar, commands in forms.items():
            shown = f"{flag} {metavar}".strip()
            lines += [f"   * - ``{shown}``", f"     - {_escape(', '.join(commands))}"]
    return lines + [""]


def cli_rst() -> list[str]:
    """The whole reference: ``modlights``, the options several commands share, then
    each command, in ``--help`` order."""
    from modlights.cli import build_parser
    os.environ["COLUMNS"] = str(WIDTH)
    parser = build_parser()
    lines = parser_rst(parser, "modlights", "-")
    lines += shared_rst(parser)
    for name, sub, summary in _subcommands(parser):
        lines += parser_rst(sub, f"modlights {name}", "-", summary)
    return lines


def setup(app):
    """Register the directive (Sphinx is imported here only: the rendering above is
    plain Python, which the test suite checks without Sphinx)."""
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class CliReference(SphinxDirective):
        has_content = False

        def run(self) -> list:
            lines = cli_rst()
            node = nodes.section()
            node.document = self.state.document
            nested_parse_with_titles(self.state, StringList(lines, "<modlights-cli>"), node)
            return node.children

    app.add_directive("modlights-cli", CliReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
