"""Each lookup's accepted copies have a shade and a dashed underline of their own, so that a
chain's tokens (a lookup's, then a draft model's) are told apart; the key shows the shades of
the lookups the chosen spec type drafts with."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextCharFormat
from test_look import AA, contrast

from app.teaching.legend import TokenLegend
from app.transcript.token_formats import (
    KIND_PROPERTY,
    LOOKUP_UNDERLINE,
    ORIGIN_PROPERTY,
    TokenFormats,
)
from backend import spec_types
from backend.palette import DARK, LIGHT, LOOKUP_KINDS, PROJECTOR


def test_every_lookup_is_a_declared_spec_type_that_needs_nothing():
    for name in LOOKUP_KINDS:
        spec = spec_types.get(name)
        assert spec is not None and spec.drafts and spec.needs == ""


@pytest.mark.parametrize("colours", [LIGHT, DARK, PROJECTOR], ids=["light", "dark", "projector"])
def test_each_lookup_has_its_own_readable_shade(colours):
    assert len(set(colours.lookup_fg)) == len(LOOKUP_KINDS)
    assert colours.accepted_fg not in colours.lookup_fg
    for fg in colours.lookup_fg:
        assert contrast(fg, colours.accepted_bg) >= AA, fg


def test_a_lookups_copy_is_dashed_in_its_shade_and_a_models_guess_is_accepted(qapp):
    formats = TokenFormats(LIGHT)
    for i, name in enumerate(LOOKUP_KINDS):
        fmt = formats.drafted(name)
        assert fmt.property(KIND_PROPERTY) == "accepted"
        assert fmt.property(ORIGIN_PROPERTY) == name
        assert fmt.underlineStyle() == LOOKUP_UNDERLINE
        assert fmt.foreground().color().name().upper() == LIGHT.lookup_fg[i].upper()
        assert formats.drafted(name) is fmt  # one shared format per kind
    for name in ("draft", "eagle3"):
        assert formats.drafted(name) is formats.accepted


def _samples(legend: TokenLegend) -> dict[str, QTextCharFormat]:
    """The key's sample words and their formats."""
    found = {}
    block = legend.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            found[fragment.text()] = fragment.charFormat()
            it += 1
        block = block.next()
    return found


def test_the_key_shows_the_chosen_lookups(qtbot):
    legend = TokenLegend()
    qtbot.addWidget(legend)
    assert not any(f.property(ORIGIN_PROPERTY) for f in _samples(legend).values())
    legend.set_spec_type("ngram-mod,draft")
    shown = {f.property(ORIGIN_PROPERTY): text for text, f in _samples(legend).items()
             if f.property(ORIGIN_PROPERTY)}
    assert shown == {"ngram-mod": "n-gram mod"}
    legend.set_spec_type("ngram,ngram-cache")
    shown = {f.property(ORIGIN_PROPERTY) for f in _samples(legend).values()}
    assert {"ngram", "ngram-cache"} <= shown and "ngram-mod" not in shown
    legend.set_spec_type("draft")
    assert not any(f.property(ORIGIN_PROPERTY) for f in _samples(legend).values())
