"""Static CSS and JavaScript without their comments, as sent (issue 21: first visit <= 15 KB).

The comments say why a rule or a line is there, for whoever edits the file; a browser
never needs them, and they were a fifth of the stylesheets' bytes after brotli (site.css
6.8 KB -> 5.6 KB). webapp/http/caching.py sends every static stylesheet and script through
here once per change of the file, before hashing and compressing it.

* CSS: every comment goes, and each run of whitespace outside a string becomes one space
  or one line break (the same to CSS); strings are kept as written.
* JavaScript: only whole lines of comment go (`// ...`, and `/* ... */` blocks that start
  a line and end one), which never lie inside code in scripts without template literals;
  a script with a backtick in its code is sent as written. Comments after code stay.
"""
from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")


def css(text: str) -> str:
    """`text` without comments and with each run of whitespace made one."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":  # a string, to its unescaped end, as written
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif ch.isspace():
            match = _SPACE.match(text, i)
            space = "\n" if "\n" in match.group() else " "
            if out and out[-1] in (" ", "\n"):  # a comment lay between two runs: one run
                out[-1] = "\n" if "\n" in (space, out[-1]) else " "
            else:
                out.append(space)
            i = match.end()
        else:
            j = i + 1
            while j < n and text[j] not in "\"'/" and not text[j].isspace():
                j += 1
            if j < n and text[j] == "/" and not text.startswith("/*", j):
                j += 1  # a slash that opens no comment (`1 / 2`, a font shorthand)
            out.append(text[i:j])
            i = j
    return "".join(out).strip() + "\n"


def js(text: str) -> str:
    """`text` without its whole lines of comment; as written if it has template literals."""
    kept: list[str] = []
    in_block = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if in_block:
            end = line.find("*/")
            if end < 0:
                continue
            in_block = False
            rest = line[end + 2:]
            if rest.strip():
                kept.append(rest)
            continue
        if stripped.startswith("//"):
            continue
        if stripped.startswith("/*"):
            end = stripped.find("*/", 2)
            if end < 0:
                in_block = True
                continue
            if not stripped[end + 2:].strip():
                continue
        kept.append(line)
    lean = "".join(kept)
    return text if "`" in lean else lean


def lean(filename: str, data: bytes) -> bytes:
    """The bytes to send for the static file `filename`: CSS and JS made lean."""
    if filename.endswith(".css"):
        return css(data.decode("utf-8")).encode("utf-8")
    if filename.endswith(".js"):
        return js(data.decode("utf-8")).encode("utf-8")
    return data
