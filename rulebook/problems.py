"""Problems a user can cause: a stable code, a JSON pointer, the rule broken, a message."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    path: str
    rule: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "rule": self.rule, "message": self.message}


def pointer(*parts: Any) -> str:
    """A JSON pointer (RFC 6901) to the field at `parts`."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def describe(value: Any) -> str:
    """A short, safe rendering of a bad value for an error message."""
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 40 else text[:37] + "..."
