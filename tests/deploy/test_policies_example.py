"""deploy/policies.example.yaml: every policy key is explained, and the example shows the less obvious ones."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, get_args

import yaml

from gateway.policy import PolicySpec, PolicyTable
from tests.deploy.conftest import REPO

EXAMPLE = REPO / "deploy" / "policies.example.yaml"


def _values(annotation: Any) -> list[str]:
    """The string values a Literal (or an Optional Literal) allows, or of an enum."""
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [m.value for m in annotation]
    return [v for arg in get_args(annotation) for v in ([arg] if isinstance(arg, str) else _values(arg))]


def test_every_policy_key_is_explained_with_its_values_in_the_header() -> None:
    header = EXAMPLE.read_text().split("\ndefault:", 1)[0]
    explained = dict(re.findall(r"^#   (\w+):\s+(.*)$", header, re.M))
    assert set(explained) == set(PolicySpec.model_fields)
    for key, field in PolicySpec.model_fields.items():
        for value in _values(field.annotation):
            assert value in explained[key], (key, value)
    assert "hybrid" in explained["engine"] and "holdback" in explained["stream"]


def test_the_example_loads_and_shows_holdback_streaming_and_an_engine() -> None:
    table = PolicyTable.load(EXAMPLE)
    raw = yaml.safe_load(EXAMPLE.read_text())["models"]
    assert {name for name, spec in raw.items() if spec.get("stream") == "holdback"} == {"claude-haiku"}
    assert {name for name, spec in raw.items() if "engine" in spec} == {"gpt-4o-mini"}
    assert table.models["claude-haiku"]["stream"] == "holdback"
    assert table.models["gpt-4o-mini"]["engine"] == "offline"
