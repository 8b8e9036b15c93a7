"""Sphinx directive ``modlights-openapi``: the web API reference from the FastAPI
application's own OpenAPI schema (``create_app().openapi()``), rendered to tables at
build time: no Redoc or Swagger page, nothing loaded from a CDN.

Every path and method gets a section: its summary, its path parameters, its JSON
request body (each field's type, whether it is required, its default and description,
from the pydantic models) and its responses. Paths are listed in the schema's order;
the test hooks (``/api/_test/...``, off by default) are not part of the API.
"""
from __future__ import annotations

import json
from typing import Any


def _escape(text: str) -> str:
    for ch in "\\*`|_":
        text = text.replace(ch, "\\" + ch)
    return " ".join(str(text).split())


def _resolve(schema: dict, spec: dict) -> dict:
    """A schema with its ``$ref`` (to #/components/schemas/...) followed."""
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = spec["components"]["schemas"][name]
    return schema


def type_name(schema: dict, spec: dict) -> str:
    """A short JSON type: ``int``, ``list of list of int``, ``int | null``, ..."""
    schema = _resolve(schema, spec)
    if "anyOf" in schema:
        return " | ".join(type_name(s, spec) for s in schema["anyOf"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    t = schema.get("type")
    if t == "array":
        return "list of " + type_name(schema.get("items", {}), spec)
    bounds = []
    if "minimum" in schema:
        bounds.append(f">= {schema['minimum']:g}")
    if "maximum" in schema:
        bounds.append(f"<= {schema['maximum']:g}")
    names = {"integer": "int", "number": "number", "string": "str", "boolean": "bool",
             "object": "object", "null": "null"}
    return names.get(t, t or "any") + (f" ({', '.join(bounds)})" if bounds else "")


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]], widths: str) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}", ""]
    for row in [header] + rows:
        for j, cell in enumerate(row):
            lines.append(("   * - " if j == 0 else "     - ") + (cell or ".."))
    return lines + [""]


def operation_rst(path: str, method: str, op: dict, spec: dict) -> list[str]:
    title = f"{method.upper()} {path}"
    lines = [title, "-" * len(title), ""]
    if op.get("summary"):
        lines += [_escape(op["summary"]) + ".", ""]
    if op.get("description"):
        lines += [_escape(op["description"]), ""]
    params = op.get("parameters", [])
    if params:
        lines += ["Path parameters:", ""]
        lines += _table(("name", "type", "description"),
                        [(f"``{p['name']}``", _escape(type_name(p.get("schema", {}), spec)),
                          _escape(p.get("description", ""))) for p in params], "20 20 60")
    body = op.get("requestBody")
    if body:
        schema = _resolve(body["content"]["application/json"]["schema"], spec)
        required = set(schema.get("required", ()))
        rows = []
        for name, prop in schema.get("properties", {}).items():
            default = "" if name in required or "default" not in prop else \
                f"``{json.dumps(prop['default'])}``"
            rows.append((f"``{name}``", _escape(type_name(prop, spec)),
                         "yes" if name in required else "no", default,
                         _escape(prop.get("description", ""))))
        lines += ["JSON body (an object; unknown fields are refused):"
                  if schema.get("additionalProperties") is False else "JSON body:", ""]
        lines += _table(("field", "type", "required", "default", "description"), rows,
                        "14 22 9 10 45")
    responses = op.get("responses", {})
    if responses:
        lines += ["Responses:", ""]
        lines += _table(("status", "meaning"),
                        [(f"``{code}``", _escape(r.get("description", "")))
                         for code, r in responses.items()], "15 85")
    return lines


def openapi_rst(spec: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for path, ops in spec["paths"].items():
        if "/_test/" in path:
            continue
        for method, op in ops.items():
            lines += operation_rst(path, method, op, spec)
    return lines


def setup(app):
    """Register the directive (Sphinx is imported here only: the rendering above is
    plain Python, which the test suite checks without Sphinx)."""
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class OpenApiReference(SphinxDirective):
        has_content = False

        def run(self) -> list:
            from modlights.web import create_app
            lines = openapi_rst(create_app(workers=1).openapi())
            node = nodes.section()
            node.document = self.state.document
            nested_parse_with_titles(self.state, StringList(lines, "<modlights-openapi>"), node)
            return node.children

    app.add_directive("modlights-openapi", OpenApiReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
