"""A table's settings as a link and a QR code, to carry them from phone to phone.

The QR code is an inline SVG drawn here by segno (a maintained, pure-Python encoder of
ISO/IEC 18004): no outside service, no script. Dark modules on a white square with the
quiet zone the standard asks for, whatever the page's colour scheme, so a camera reads it
from a screen and from paper. Templates call `settings_url()` (this page, or another page
of the game, with the page's settings only: ruleset or edition, options, `house=`) and
`qr_svg(url, label)`; templates/share/ holds the includes that show them.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote

from flask import Blueprint, request, url_for
from jinja2 import pass_context
from markupsafe import Markup, escape

bp = Blueprint("share", __name__)
QUIET_ZONE = 4  # modules of white around the code (ISO/IEC 18004)


@lru_cache(maxsize=512)
def _svg(url: str) -> str:
    # Error correction M: a link of a few hundred characters stays a code of at most 57
    # modules a side, about 3 px each at the size the pages show it. (segno is imported at
    # the first code drawn, not by create_app(): ~10 ms of every start.)
    import segno

    code = segno.make(url, error="m", micro=False)
    return code.svg_inline(scale=1, border=QUIET_ZONE, omitsize=True, dark="#000",
                           light="#fff", svgclass="qr-code", lineclass=None)


@bp.app_template_global()
def qr_svg(url: str, label: str) -> Markup:
    """The QR code of `url` as inline SVG, an image named `label` for screen readers."""
    svg = _svg(url)
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))


NON_ASCII = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")  # the escapes of UTF-8 beyond ASCII


@bp.app_template_filter()
def readable_url(url: str) -> str:
    """A link as a person reads it: `Бабусині` rather than `%D0%91…`. Escapes of ASCII
    (`%26` in a name with "&") stay, so the text copied by hand is still the same link;
    the href and the code keep the encoded form."""
    return NON_ASCII.sub(lambda match: unquote(match.group(0)), url)


@bp.app_template_global()
@pass_context
def settings_url(context, endpoint: str | None = None) -> str:
    """The absolute link of a page of this game (this page by default) with the page's
    settings only: what a QR code carries to another phone."""
    game = context["game"]
    return url_for(endpoint or request.endpoint, game=game.slug, _external=True,
                   **context["options"].query)
