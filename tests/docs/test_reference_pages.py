"""The generated reference pages cover what they claim: the CLI page every command
and option of the argparse parsers, the web API page every endpoint and body field of
the app's OpenAPI schema. The renderers (docs/_ext/) are plain Python, so this runs
without Sphinx; ``.ci/docs`` builds the pages themselves."""

from __future__ import annotations

import argparse
import importlib.util
import pathlib

import pytest

EXT = pathlib.Path(__file__).resolve().parents[2] / "docs" / "_ext"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXT / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_page_lists_every_command_and_option():
    cli = _load("cli_reference")
    from modlights.cli import COMMANDS, build_parser

    text = "\n".join(cli.cli_rst())
    parser = build_parser()
    subs = {name: sub for name, sub, _ in cli._subcommands(parser)}
    assert len(subs) == len(COMMANDS) > 0
    for name, sub in subs.items():
        assert f"\nmodlights {name}\n" in text, f"no section for modlights {name}"
        section = text.split(f"\nmodlights {name}\n", 1)[1].split("\nmodlights ", 1)[0]
        rows = [line for line in section.splitlines() if line.startswith("   * - ``")]
        for action in sub._actions:
            if action.help is argparse.SUPPRESS:
                continue
            for flag in action.option_strings:  # a row of the options table each
                assert any(f"``{flag}" in r or f", {flag}" in r for r in rows), (
                    f"modlights {name}: {flag} is not in the options table"
                )


def test_web_page_lists_every_endpoint_and_body_field():
    pytest.importorskip("fastapi")
    api = _load("openapi_reference")
    from modlights.web import create_app

    spec = create_app(workers=1).openapi()
    text = "\n".join(api.openapi_rst(spec))
    endpoints = 0
    for path, ops in spec["paths"].items():
        if "/_test/" in path:
            assert path not in text
            continue
        for method, op in ops.items():
            title = f"{method.upper()} {path}"
            assert f"\n{title}\n" in "\n" + text, f"{title} is not on the page"
            endpoints += 1
            section = text.split(title, 1)[1].split("\nPOST /", 1)[0].split("\nGET /", 1)[0]
            body = op.get("requestBody")
            if body:
                schema = api._resolve(body["content"]["application/json"]["schema"], spec)
                for field in schema["properties"]:
                    assert f"``{field}``" in section, f"{title}: field {field} missing"
    assert endpoints >= 6


def test_type_names():
    api = _load("openapi_reference")
    spec = {"components": {"schemas": {"X": {"type": "integer", "minimum": 2}}}}
    assert api.type_name({"$ref": "#/components/schemas/X"}, spec) == "int (>= 2)"
    assert (
        api.type_name(
            {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]}, spec
        )
        == "list of int | null"
    )
