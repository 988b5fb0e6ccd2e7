"""A game's page as a screen reader and a keyboard move through it: the board in words in parts,
each a heading and a list (not lines that begin with a dash), and the skip link, which leads
where it says."""

from __future__ import annotations

import pytest

import engines
from bench.history import store_game
from bot.sessions.model import stored
from tests.support.played import whole_game
from tests.table.test_web_pages import serve
from tests.web.conftest import BROWSER_TESTS, LAYOUT_ONLY
from tests.web.test_league_and_person_pages import audit

pytestmark = BROWSER_TESTS


@pytest.mark.parametrize(
    ("game", "players"),
    [("guanga", 2), ("tiwanaku", 3), ("pachakuna", 2), ("nowa_gwinea", 3), ("guacamole", 3)],
)
async def test_the_board_in_words_is_headings_and_lists(service, chromium, game, players):
    played, final = whole_game(game, players, 5)
    sid = await store_game(service, game, players, 5, played[:12], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        context = await chromium.new_context(locale="en-GB")
        page = await context.new_page()
        await page.goto(str(client.make_url(f"/g/{token}")))
        details = page.locator("details")
        await details.locator("summary").click()
        headings = await details.get_by_role("heading", level=3).all_inner_texts()
        assert len(headings) >= 2, headings
        items = await details.get_by_role("listitem").all_inner_texts()
        assert len(items) > len(headings), items
        assert not [i for i in items if i.startswith("-")], items
        assert await details.locator("p").count() == 0  # every line is in a part's list
        # The headings go down one level at a time: h1, its h2s, the words' h3s.
        levels = await page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "hs => hs.map(h => +h.tagName[1])")
        assert levels[0] == 1
        assert all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False)), levels
        # The words' parts are the board's: inside its section, under its heading.
        assert await page.locator("#board-part details h3").count() == len(headings)
    finally:
        pages.close()
        await client.close()


async def test_the_skip_link_leads_where_it_says(service, chromium):
    played, final = whole_game("guanga", 2, 5)
    sid = await store_game(service, "guanga", 2, 5, played[:6], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        page = await (await chromium.new_context(locale="en-GB")).new_page()
        await page.goto(str(client.make_url(f"/g/{token}")))
        await page.keyboard.press("Tab")
        assert await page.evaluate("document.activeElement.textContent") == "Skip to the board"
        await page.keyboard.press("Enter")
        # The focus is on the board's part of the page, which holds the picture.
        assert await page.evaluate("document.activeElement.id") == "board-part"
        assert await page.locator("#board-part img#board").count() == 1
        # A page with no board (here, a wrong link's) skips to its content, and says so, in
        # the reader's language.
        for lang, text in (("en", "Skip to the content"), ("es", "Saltar al contenido")):
            await page.goto(str(client.make_url(f"/g/nothing-here?lang={lang}")))
            await page.keyboard.press("Tab")
            assert await page.evaluate("document.activeElement.textContent") == text
            assert "board" not in text and "tablero" not in text
            await page.keyboard.press("Enter")
            assert await page.evaluate("document.activeElement.id") == "main"
    finally:
        pages.close()
        await client.close()


async def test_a_step_taken_from_the_keyboard_is_told_to_a_screen_reader(service, chromium):
    """The arrow keys step through the moves with the focus left where it was: the live region
    says which step the page now shows, and its move, as the step's heading and the move list
    write them (the move in words in the page's language, its notation beside them)."""
    played, final = whole_game("guanga", 2, 5)
    sid = await store_game(service, "guanga", 2, 5, played[:6], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        words = {"en": " placed ", "es": " colocó "}  # the move in words, then its notation
        for lang, before in (("en", "Before the first move"), ("es", "Antes de la primera jugada")):
            page = await (await chromium.new_context(locale=lang)).new_page()
            await page.goto(str(client.make_url(f"/g/{token}?lang={lang}")))
            said = page.locator("#announce[role=status][aria-live=polite]")
            assert await said.inner_text() == ""  # nothing said on arrival
            moves = await page.locator("ol.moves a").all_inner_texts()  # the start, then each move
            await page.focus("#board-part")  # where the skip link leads
            await page.keyboard.press("ArrowLeft")
            await page.locator("#game[data-step='5']").wait_for()
            label = await page.locator("#step-label").inner_text()
            assert label.endswith(("5 of\xa06", "5 de\xa06")), label  # the number kept on its line
            assert await said.inner_text() == f"{label}: {moves[5]}"
            assert words[lang] in moves[5], moves[5]
            assert await page.locator("ol.moves a[aria-current] code").inner_text() == played[4].move
            assert await audit(page) == [], lang
            await page.keyboard.press("Home")
            await page.locator("#game[data-step='0']").wait_for()
            assert await said.inner_text() == before
            await page.context.close()
    finally:
        pages.close()
        await client.close()


async def test_the_move_keys_are_the_boards_and_the_pages_own_keys_stay_the_pages(service, chromium):
    """Home, End and the arrows step through the moves with the focus on the board, its step
    links or the move list; elsewhere they are the page's own: End scrolls to the bottom of the
    page, and the step shown stays."""
    played, final = whole_game("guanga", 2, 4)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", await store_game(service, "guanga", 2, 4, played[:8], final))
        context = await chromium.new_context(locale="en-GB", viewport={"width": 1000, "height": 600})
        page = await context.new_page()
        await page.goto(str(client.make_url(f"/g/{token}?move=3")))
        assert await page.evaluate("document.documentElement.scrollHeight > window.innerHeight")
        await page.click("h1")  # the focus on the page itself, on no control
        assert await page.evaluate("window.scrollY") == 0
        # after the page's own listener (on the document), whether it took each key for itself
        await page.evaluate(
            "window.keysLeft = []; window.addEventListener('keydown',"
            " e => window.keysLeft.push([e.key, e.defaultPrevented]))"
        )
        await page.keyboard.press("End")
        await page.wait_for_function("() => window.scrollY > 0")  # the browser's own End
        await page.keyboard.press("Home")
        await page.keyboard.press("ArrowRight")
        # each key left to the browser: none stepped through the moves
        assert await page.evaluate("window.keysLeft") == [
            ["End", False],
            ["Home", False],
            ["ArrowRight", False],
        ]
        assert await page.get_attribute("#game", "data-step") == "3"
        # On the board, its step links and the move list, the keys step through the moves.
        for where, key, step in (
            ("#board-part", "End", 8),
            ("nav.steps a[rel=prev]", "Home", 0),
            ("ol.moves a[data-step='3']", "ArrowRight", 1),
            ("ol.moves a[data-step='2']", "End", 8),
        ):
            await page.focus(where)
            await page.keyboard.press(key)
            await page.locator(f"#game[data-step='{step}']").wait_for()
    finally:
        pages.close()
        await client.close()


FOCUS = "() => [document.activeElement.id, Boolean(document.querySelector('#words[open]'))]"


async def test_the_keyboards_place_and_the_open_board_in_words_survive_a_step_and_a_followed_move(
    service, chromium
):
    """The board in words opened from its summary stays open, with the focus on the summary, when
    the arrow keys step through the moves and when a move of the running game arrives; so does
    the focus on the slider's Go (a screen reader's place is not lost to the page's body)."""
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:8], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        page = await (await chromium.new_context(locale="en-GB")).new_page()
        await page.goto(str(client.make_url(f"/g/{token}?move=5")))
        await page.focus("#words-summary")
        await page.keyboard.press("Enter")  # opens the board in words
        assert await page.evaluate(FOCUS) == ["words-summary", True]
        await page.keyboard.press("ArrowLeft")
        await page.locator("#game[data-step='4']").wait_for()
        assert await page.evaluate(FOCUS) == ["words-summary", True]
        await page.focus("#move-go")
        await page.keyboard.press("ArrowLeft")
        await page.locator("#game[data-step='3']").wait_for()
        assert await page.evaluate(FOCUS) == ["move-go", True]
        await page.goto(str(client.make_url(f"/g/{token}")))  # the latest move, following the game
        await page.focus("#words-summary")
        await page.keyboard.press("Enter")
        module = engines.get("guanga").load()
        version = (await service.core.reread(sid)).version
        await service.store.games.record_moves(
            sid, version, [stored(p) for p in played[8:10]], module.to_dict(final)
        )
        await service.store.games.set_board_message(sid, 2, 10)
        await page.locator("#game[data-shown='10']").wait_for()
        assert await page.evaluate(FOCUS) == ["words-summary", True]
        await page.context.close()
    finally:
        pages.close()
        await client.close()


async def test_on_a_phone_the_board_opens_at_full_size_from_the_keyboard(service, chromium):
    """On a 360 px phone the board (about 1,200 px wide) is drawn about 330 px wide, too small to
    read: the picture is a link to the PNG itself, which the keyboard reaches and opens, while the
    page keeps its alt text and the board in words, and axe-core finds nothing wrong."""
    from io import BytesIO

    from PIL import Image

    played, final = whole_game("guanga", 2, 5)
    sid = await store_game(service, "guanga", 2, 5, played[:6], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for lang, hint in (("en", "at full size"), ("es", "a tamaño completo")):
            context = await chromium.new_context(viewport={"width": 360, "height": 740}, locale=lang)
            page = await context.new_page()
            await page.goto(str(client.make_url(f"/g/{token}?move=4&lang={lang}")))
            board = page.locator("#board-part a#board-link > img#board")
            assert await board.count() == 1
            shown, natural = await board.evaluate("i => [i.getBoundingClientRect().width, i.naturalWidth]")
            assert natural >= 1000 and shown <= 340, (shown, natural)
            alt = await board.get_attribute("alt")
            assert alt and len(alt) > 40, alt
            assert await page.get_by_role("link", name=alt).count() == 1  # the link is named by the alt text
            src = await board.get_attribute("src")
            assert src == f"/g/{token}/board/4.png?lang={lang}"
            assert await page.get_attribute("#board-link", "href") == src
            described = await page.get_attribute("#board-link", "aria-describedby")
            assert hint in await page.locator(f"#{described}").inner_text()
            assert await page.locator("#board-part details summary").count() == 1  # the board in words
            assert await audit(page) == [], lang
            # From the keyboard: Tab reaches the board's link, Enter opens the PNG at full size.
            for _ in range(30):
                await page.keyboard.press("Tab")
                if await page.evaluate("document.activeElement.id") == "board-link":
                    break
            assert await page.evaluate("document.activeElement.id") == "board-link"
            # The arrow keys still step through the moves there, the focus kept on the board.
            await page.keyboard.press("ArrowLeft")
            await page.locator("#game[data-step='3']").wait_for()
            assert await page.evaluate("document.activeElement.id") == "board-link"
            assert await page.get_attribute("#board-link", "href") == src.replace("/4.png", "/3.png")
            async with page.expect_navigation() as opened:
                await page.keyboard.press("Enter")
            reply = await opened.value
            assert reply.headers["content-type"] == "image/png"
            picture = Image.open(BytesIO(await reply.body()))
            assert picture.width == natural
            await context.close()
    finally:
        pages.close()
        await client.close()


LAST_TWO_WORDS = """el => {
  const node = [...el.childNodes].filter(c => c.nodeType === 3).pop();
  const text = node.textContent.replace(/\\s+$/, '');
  const [whole, before, last] = text.match(/(\\S+)\\s+(\\S+)$/);
  const start = text.length - whole.length, range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, start + before.length);
  const a = [...range.getClientRects()].pop();
  range.setStart(node, text.length - last.length);
  range.setEnd(node, text.length);
  const b = range.getClientRects()[0];
  return [before, last, Math.round(a.top), Math.round(b.top)];
}"""


@LAYOUT_ONLY
@pytest.mark.parametrize(("game", "players"), [("guacamole", 3), ("pachakuna", 2), ("nowa_gwinea", 3)])
async def test_a_headings_number_never_stands_alone_on_a_phone(service, chromium, game, players):
    """On a 390 px phone in Spanish the game's title wrapped before its number ("Guacamole, partida
    n.º" above a lone "1"), and the board's heading before the number of moves ("tras la jugada 12
    de" above "12"): a number now stays on the line of the word before it, in either language."""
    played, final = whole_game(game, players, 5)
    sid = await store_game(service, game, players, 5, played[:12], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for width in (360, 390):
            for lang in ("en", "es"):
                context = await chromium.new_context(viewport={"width": width, "height": 844}, locale=lang)
                page = await context.new_page()
                await page.goto(str(client.make_url(f"/g/{token}?lang={lang}")))
                for where in ("h1", "#step-label"):
                    before, last, top, number_top = await page.locator(where).evaluate(LAST_TWO_WORDS)
                    assert last == "12" or last.endswith(str(sid)), (where, last)
                    assert number_top == top, (width, lang, where, before, last)
                await context.close()
    finally:
        pages.close()
        await client.close()
