"""A Guacamole game's page names its cards in words, as the channel's turn posts do: each move of
the history list ("p1 swapped 4 Lima from their hand with 9 Onion from ...") and the board's alt
text, its last action, in English and Spanish; the notation beside each move keeps its codes."""

from __future__ import annotations

import pytest

from bench.history import store_game
from engines.guacamole.data import describe
from languages import language
from tests.support.played import whole_game
from tests.table.test_guacamole_told_cards import CODE
from tests.table.test_web_pages import serve
from tests.web.conftest import BROWSER_TESTS

pytestmark = BROWSER_TESTS

WORDS = """ms => ms.map(m => {
    const words = m.cloneNode(true);
    words.querySelectorAll("code").forEach(c => c.remove());
    return [words.textContent, m.querySelector("code")?.textContent ?? ""];
})"""
"""Each move of the list: its words (the notation beside them left out) and its notation."""


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_move_list_and_the_alt_text_name_guacamole_cards_in_words(service, chromium, lang):
    played, final = whole_game(
        "guacamole", 3, 5, stop=lambda played, _, __: played[-1].move.startswith("swap")
    )
    swap = played[-1].move
    assert swap.startswith("swap ") and not swap.split()[1].startswith("p"), swap  # a card from the hand
    given = describe(swap.split()[1]).in_words(language(lang))
    sid = await store_game(service, "guacamole", 3, 5, played, final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        page = await (await chromium.new_context(locale=lang)).new_page()
        await page.goto(str(client.make_url(f"/g/{token}?lang={lang}")))
        moves = await page.eval_on_selector_all("ol.moves a", WORDS)
        assert len(moves) == len(played) + 1  # the start, then each move
        coded = [words for words, _ in moves if CODE.search(words)]
        assert not coded, coded[:3]
        words, notation = moves[-1]
        assert notation == swap and given in words, (words, notation)
        assert any(CODE.search(notation) for _, notation in moves)  # the notation keeps its codes
        alt = await page.locator("img#board").get_attribute("alt")
        assert alt is not None and given in alt and not CODE.search(alt), alt
    finally:
        pages.close()
        await client.close()
