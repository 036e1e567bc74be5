"""Shared helpers of the rulebook tests."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml


def modified_copy(source: Path, folder: Path, change: Callable[[dict], None]) -> Path:
    """A copy of the rulebook YAML at `source` in `folder`, changed by `change(data)`."""
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    change(data)
    path = folder / source.name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path
