"""Shared helpers of the rulebook tests."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml

from rulebook.loader import safe_yaml_loader

# libyaml's safe loader and dumper: the same documents, read and written about ten times
# faster than PyYAML's pure-Python ones (a rulebook is thousands of lines).
LOADER = safe_yaml_loader()
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def modified_copy(source: Path | str, folder: Path, change: Callable[[dict], None]) -> Path:
    """A copy of the rulebook YAML at `source` in `folder`, changed by `change(data)`."""
    source = Path(source)
    data = yaml.load(source.read_text(encoding="utf-8"), Loader=LOADER)
    change(data)
    path = folder / source.name
    path.write_text(yaml.dump(data, Dumper=DUMPER, allow_unicode=True), encoding="utf-8")
    return path
