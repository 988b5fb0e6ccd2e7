"""A colour's name comes into a Spanish message in its masculine form ("blanco", "negro"), so a
message never makes it agree with a feminine noun ("la aldea 55 es blanco"): after "es" it is
"de color blanco", which reads right whatever the noun."""

from __future__ import annotations

import re

from tests.i18n.test_spanish_address import spanish_texts

AGREEING = re.compile(r"\b(?:es|son|está|están) \{colou?r\}")


def test_a_colour_never_agrees_with_its_noun():
    texts = spanish_texts()
    assert any("{colour}" in text for _, text in texts)
    assert [f"{english!r}: {text!r}" for english, text in texts if AGREEING.search(text)] == []
    assert AGREEING.search("la aldea {village} es {colour}; una aldea")  # what it said before
