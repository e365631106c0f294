"""Strict use of the generated client: a response whose status the spec
does not list raises (``raise_on_unexpected_status``), and one that parses
but does not match its schema raises here. openapi-python-client keeps
unknown members in ``additional_properties`` and drops nothing silently
only if the model round-trips, so both are checked."""

from __future__ import annotations

import json
import typing

import attrs


class SchemaMismatch(AssertionError):
    pass


def unknown_members(value: typing.Any, path: str = "$") -> list[str]:
    """Paths of members a parsed model kept as ``additional_properties``
    although its schema does not declare them (models of open maps declare
    their value type, not ``Any``)."""
    found: list[str] = []
    if attrs.has(type(value)):
        extra = getattr(value, "additional_properties", None)
        declared = attrs.fields_dict(type(value)).get("additional_properties")
        if extra and declared is not None and declared.type in ("dict[str, Any]", dict[str, typing.Any]):
            found += [f"{path}.{k}" for k in extra]
        for field in attrs.fields(type(value)):
            if field.name != "additional_properties":
                found += unknown_members(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += unknown_members(item, f"{path}[{i}]")
    return found


def parsed(response, expected: type):
    """The parsed body of a successful ``sync_detailed`` response, checked
    against its schema as described above."""
    body = response.parsed
    if not 200 <= int(response.status_code) < 300:
        raise SchemaMismatch(f"{int(response.status_code)}: {response.content.decode()}")
    if expected is list:
        items = body
    else:
        if not isinstance(body, expected):
            raise SchemaMismatch(f"expected {expected.__name__}, parsed {type(body).__name__}: {response.content[:500]!r}")
        items = [body]
    unknown = [p for item in items for p in unknown_members(item)]
    if unknown:
        raise SchemaMismatch(f"members the schema does not declare: {unknown[:10]}")
    raw = json.loads(response.content)
    again = [i.to_dict() for i in items] if expected is list else body.to_dict()
    if again != raw:
        raise SchemaMismatch(f"{type(body).__name__} does not round-trip:\n{json.dumps(raw)[:2000]}\n{json.dumps(again)[:2000]}")
    return body
