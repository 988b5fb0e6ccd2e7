"""A game page's move list says each move in words, in the page's language, as ``/game history``
gives it to a reader who is not seated, with its notation (when public) in a ``<code>`` beside
them; and a secret move shows only what everyone may know while it is secret, on both back ends.

The secrets are found from the rules and the true states (the move played, the card that entered
a hand from the draw pile), never from the code that hides them."""

from __future__ import annotations

import html as markup
import re
from collections import Counter

import pytest

import engines
from bot import alt, movetexts
from bot.public import seen
from bot.records import MoveRecord
from bot.sessions.model import stored
from bot.web.game import move_line
from engines.core import PUBLIC, TABLE, config_from_options
from engines.options import options_of
from languages import language
from tests.support.played import whole_game
from tests.table.test_web_pages import record_end, serve

ENTRY = re.compile(r'<li value="(\d+)"><a [^>]*>(.*?)</a></li>', re.S)

FIRST = {
    # game, seats: the first move of seed 3's game in words and its notation, in English and Spanish
    ("guanga", 2): (
        "P2E5",
        "p1 placed yellow rombo (basket slot 2) on E5.",
        "p1 colocó rombo amarillo (hueco 2 de la canasta) en E5.",
    ),
    ("tiwanaku", 2): (
        "+D1",
        "p1 enters on D1 and discovers mountain and takes a mountain cube.",
        "p1 entra en D1, descubre una loseta de montaña y toma un cubo de montaña.",
    ),
    ("pachakuna", 2): ("r44+3", "p1 turned tile 44 half a turn.", "p1 giró la loseta 44 media vuelta."),
    ("nowa_gwinea", 2): ("I1G3", "p1 built a hut.", "p1 construyó una choza."),
    ("guacamole", 3): (
        "prep 8O",
        "p1 prepared 8 Onion (draw 3, then discard 1).",
        "p1 preparó 8 Onion (roba 3 y luego descarta 1).",
    ),
}


def entries(page: str) -> dict[int, tuple[str, str | None, bool]]:
    """The page's move list: by number, (the words, the notation in its <code> or None, whether it
    says the computer played it)."""
    out = {}
    for number, inner in ENTRY.findall(page):
        code = re.search(r" <code>([^<]*)</code>", inner)
        by_computer = inner.endswith(("(played by the computer)", "(jugada de la máquina)"))
        words = re.sub(r" <code>[^<]*</code>| \((played by the computer|jugada de la máquina)\)$", "", inner)
        out[int(number)] = (
            markup.unescape(words),
            None if code is None else markup.unescape(code.group(1)),
            by_computer,
        )
    return out


async def store_played(service, game, players, seed, options, played, state, channel=4100) -> int:
    """``played`` stored as a game of ``game`` with ``options`` (players p1, p2, ...), its board
    told through the last move, at ``state``."""
    session = await service.lobby.create(
        game, guild_id=1, channel_id=channel, host_id=1, host_name="p1", options=options, seed=seed
    )
    for uid in range(2, players + 1):
        await service.lobby.join(channel, uid, f"p{uid}")
    module = engines.get(game).load()
    config = config_from_options(module.Config, players, options)
    start = module.new_game(config, players, seed)
    await service.store.games.start(
        session.id, {i: i for i in range(players)}, options_of(config), module.to_dict(start)
    )
    version = (await service.core.reread(session.id)).version
    await service.store.games.record_moves(
        session.id, version, [stored(p) for p in played], module.to_dict(state)
    )
    await service.store.games.set_board_message(session.id, 1, len(played))
    return session.id


@pytest.mark.parametrize(("game", "players"), list(FIRST))
async def test_each_move_is_said_in_words_in_the_pages_language(service, game, players):
    played, final = whole_game(game, players, 3)
    sid = await store_played(service, game, players, 3, {}, played, final)
    await record_end(service, sid, game, final)
    session = await service.core.reread(sid)
    records = [r for r in await service.logbook.log(session) if r.number is not None]
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        notation, english, spanish = FIRST[(game, players)]
        for code, first in (("en", english), ("es", spanish)):
            t = language(code)
            page = await (await client.get(f"/g/{token}?move=1&lang={code}")).text()
            listed = entries(page)
            assert len(listed) == len(played) + 1  # the start, then every move
            assert listed[1] == (first, notation, True), listed[1]
            # The live region and the step's heading read the same words (the current entry).
            assert re.search(r'aria-current="step">' + re.escape(markup.escape(first, quote=False)), page)
            for record in records:
                words, shown_notation, _ = listed[record.number]
                public = seen(session.engine, session.state, record, None, t)
                assert shown_notation == public.notation, record
                # The words are /game history's for a reader not seated: its lines after its head.
                told = movetexts.history_text(session, record.number, len(played), record, None, t)
                said = told.split("\n")[2:]
                if said:
                    assert words == " ".join(alt.plain(line, session.names()) for line in said), record
                assert words and words != shown_notation and "`" not in words, record
    finally:
        pages.close()
        await client.close()


def play_until(game, players, seed, options, stop):
    """Computer players play ``game`` with ``options`` until ``stop(played, before, state)`` says
    so after a move (or the game ends): the moves and the state then."""
    return whole_game(game, players, seed, options=options, stream="web-move-words", stop=stop)


def hand_codes(state, seat):
    from engines.guacamole.data import card_code

    return Counter(map(card_code, state.hands[seat]))


class Secrets:
    """What each move hid, by the rules: move number -> the texts no spectator may read yet."""

    def __init__(self, game):
        self.game = game
        self.hidden: dict[int, set[str]] = {}
        self.round_huts: list[int] = []

    def note(self, played, before, state) -> None:
        number, record = len(played), played[-1]
        move = record.move
        if self.game == "guanga" and move.startswith("keep"):
            self.hidden[number] = {move}
        elif self.game == "tiwanaku" and move.startswith("peek:"):
            self.hidden[number] = {move, move.split(":", 1)[1] + " on the disc", "sees crop"}
        elif self.game == "nowa_gwinea":
            if state.round != before.round or state.over:
                for n in self.round_huts:  # the round's end shows its huts
                    self.hidden.pop(n, None)
                self.round_huts = []
            elif record.seat != TABLE and move not in ("done", "gwinea"):
                self.hidden[number] = {move}
                self.round_huts.append(number)
        elif self.game == "guacamole" and move == "draw deck":
            drawn = hand_codes(state, record.seat) - hand_codes(before, record.seat)
            self.hidden[number] = set(drawn)


PRIVATE = [
    # game, options, seats, seed, how many secrets to meet before the page is read
    ("guanga", {"mode": "apprentice"}, 2, 11, 1),
    ("tiwanaku", {}, 2, 5, 1),
    ("nowa_gwinea", {}, 2, 8, 2),
    ("guacamole", {}, 3, 4, 3),
]


@pytest.mark.parametrize(
    ("game", "options", "players", "seed", "wanted"), PRIVATE, ids=[p[0] for p in PRIVATE]
)
async def test_a_secret_move_says_only_what_everyone_may_know(service, game, options, players, seed, wanted):
    secrets = Secrets(game)

    def stop(played, before, state):
        secrets.note(played, before, state)
        return len(secrets.hidden) >= wanted

    played, state = play_until(game, players, seed, options, stop)
    assert len(secrets.hidden) >= wanted, f"{game}: no secret met; pick another seed"
    assert engines.get(game).load().outcome(state) is None  # the game goes on: its secrets kept
    sid = await store_played(service, game, players, seed, options, played, state)
    session = await service.core.reread(sid)
    records = {r.number: r for r in await service.logbook.log(session) if r.number is not None}
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for code in ("en", "es"):
            t = language(code)
            for step in sorted({len(played), *secrets.hidden}):
                page = markup.unescape(await (await client.get(f"/g/{token}?move={step}&lang={code}")).text())
                listed = entries(page)
                for number, hidden in secrets.hidden.items():
                    record = records[number]
                    words, notation, _ = listed[number]
                    for text in hidden:
                        assert text not in f"{words} {notation}", (code, step, number, text)
                    # what only the mover reads (the engine's private sentence) is nowhere on the page
                    for line in seen(session.engine, session.state, record, record.seat, t).lines:
                        private = alt.plain(line.replace(f"{{p{record.seat}}}", f"p{record.seat + 1}"))
                        public = seen(session.engine, session.state, record, None, t).lines
                        if line not in public:
                            assert private not in page, (code, step, number, private)
                    assert words.startswith(f"p{record.seat + 1} "), words  # who moved is public
                    if game != "guacamole":  # a draw from the pile is public; the card is not
                        assert notation is None, (number, notation)
    finally:
        pages.close()
        await client.close()


def test_a_move_without_public_lines_says_who_played_it():
    """A move read from a log written before its events were kept: who played it, its notation
    beside (when public); a move neither public nor put in words says only that it happened."""
    module = engines.get("guanga").load()
    state = module.new_game(module.Config(), 2, 1)
    names = ["__ana__", "bo"]
    for code, played, hidden in (
        ("en", "__ana__ played.", "__ana__ made a move only they can see."),
        ("es", "__ana__ jugó.", "__ana__ hizo una jugada que solo ve quien la hizo."),
    ):
        t = language(code)
        line = move_line(module, state, names, MoveRecord(0, "P2E5", False, None, PUBLIC, number=1), t)
        assert (line.text, line.notation, line.computer) == (played, "P2E5", False)
        line = move_line(module, state, names, MoveRecord(0, "P2E5", True, None, None, number=1), t)
        assert (line.text, line.notation, line.computer) == (hidden, None, True)
