"""No secret reaches the wrong eyes: seeded random games of all five games through the session service.

After every move the test reads every surface a player or a spectator can read
(the channel message, the private confirmation, /game log, /game status,
/game list, event lines, and every seat's and the spectator's view) and looks
for anything that is another seat's secret at that moment.

The oracle is built from the true game state and from the rules as written,
never from the code under test (no ``move_privacy``, ``readable`` or event
visibility): the test replays each accepted move through ``apply_move`` to
know, move by move, what entered whose hands, what was peeked, which huts
were built in the running round, which orders were dealt.  For hands and the
P'achakuna bag it also checks that a view does not change at all when the
things its reader cannot know are shuffled.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

import engines
from bot import choices, movetexts, public, texts
from bot.sessions import SessionService
from engines.core import TABLE, config_from_options, jsonable

GUILD = 1
NAMES = ("ann", "bob", "cid", "dee")


@dataclass
class Secret:
    owner: int
    pattern: re.Pattern
    what: str
    knowers: frozenset[int] = frozenset()
    needle: str | None = None  # text every match of ``pattern`` holds as it is, to skip the search

    def hidden_from(self, reader: int | None) -> bool:
        return reader != self.owner and (reader is None or reader not in self.knowers)


@dataclass
class Oracle:
    """What is whose secret, from the true state and the moves as applied."""

    game: str
    module: Any
    state: Any
    names: list[str]
    # Nowa Gwinea: texts of this round's huts and take-backs per seat; tokens from finished rounds
    round_tokens: dict[int, set[str]] = field(default_factory=dict)
    revealed_tokens: set[str] = field(default_factory=set)
    # per batch: (seat, card, seats who know) for cards that entered a hand unseen; peeks made
    batch_cards: list[tuple[int, str, frozenset[int]]] = field(default_factory=list)
    batch_peeks: list[tuple[int, str]] = field(default_factory=list)
    batch_texts: list[str] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)

    def advance(self, played) -> None:
        """Replay a batch of accepted moves on the true state, noting what each one hid."""
        self.batch_cards, self.batch_peeks, self.batch_texts = [], [], []
        for record in played:
            before = self.state
            move = self.module.parse_move(record.move)
            self.state, _ = self.module.apply_move(before, record.seat, move)
            self.batch_texts.append(record.move)
            getattr(self, f"_note_{self.game}")(before, record.seat, record.move)

    # -- per game: what a move hid, by the rules

    def _note_guanga(self, before, seat, text):
        self.counts["keep"] += text.startswith("keep")

    def _note_pachakuna(self, before, seat, text):
        pass

    def _note_tiwanaku(self, before, seat, text):
        if text.startswith("peek:"):
            self.batch_peeks.append((seat, text.split(":", 1)[1]))
            self.counts["peek"] += 1

    def _note_nowa_gwinea(self, before, seat, text):
        if self.state.round != before.round or self.state.over:
            for tokens in self.round_tokens.values():
                self.revealed_tokens |= tokens
            self.round_tokens = {}
            self.counts["round ends"] += 1
        if seat == TABLE or text in ("done", "gwinea"):
            return
        letter = text.split()[-1] if text.startswith("remove") else text[0]
        tokens = {f"hut {letter}"} | ({f"remove {letter}"} if text.startswith("remove") else {text})
        if self.state.round == before.round and not self.state.over:
            self.round_tokens.setdefault(seat, set()).update(tokens)
            self.counts["hut"] += 1

    def _note_guacamole(self, before, seat, text):
        from engines.guacamole.data import card_code

        for s in range(before.config.players):
            gained = Counter(map(card_code, self.state.hands[s])) - Counter(map(card_code, before.hands[s]))
            for card in gained.elements():
                if text == "draw deck":
                    knowers = frozenset({s})
                elif text.startswith("steal"):
                    knowers = frozenset({s, int(text.split("p")[-1]) - 1})
                else:
                    continue  # taken from a visible place, or a laid dish taken back: public
                self.batch_cards.append((s, card, knowers))
                self.counts[text.split()[0]] += 1

    # -- the secrets at this moment

    def secrets(self) -> list[Secret]:
        out: list[Secret] = []
        n = self.state.config.players
        if self.game == "guanga":
            from engines.guanga.rules import ORDER

            for s in range(n):
                kept = self.state.orders[s]
                for order in self.state.orders_dealt[s]:
                    if self.state.finished and order == kept:
                        continue  # the kept orders are shown at the end
                    o = ORDER[order]
                    out.append(Secret(s, re.compile(rf"\b{order}\b"), f"order {order}", needle=order))
                    worth = f"{o[1]} {o[2]} VP / {o[3]} {o[4]} VP"
                    out.append(Secret(s, re.compile(re.escape(worth)), order, needle=worth))
        elif self.game == "tiwanaku":
            from engines.tiwanaku.board import cell_name

            for s in range(n):
                for c in self.state.peeks[s]:
                    name = cell_name(c, self.state.cols)
                    out.append(Secret(s, re.compile(rf"peek\W*{name}\b", re.I), f"peek at {name}"))
        elif self.game == "nowa_gwinea":
            for s, tokens in self.round_tokens.items():
                for token in tokens - self.revealed_tokens:
                    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(token)}(?![0-9])")
                    out.append(Secret(s, pattern, token, needle=token))
        return out

    def forbidden(self, reader: int | None) -> list[Secret]:
        own = self.round_tokens.get(reader, set()) if self.game == "nowa_gwinea" else set()
        return [s for s in self.secrets() if s.hidden_from(reader) and s.what not in own]


def scramble_for(game: str, module, state, reader: int | None, rng: random.Random):
    """A state that differs from ``state`` only in what ``reader`` cannot know, or None."""
    if game == "guacamole":
        copy = module.from_dict(module.to_dict(state))
        others = [s for s in range(state.config.players) if s != reader]
        pool = [c for s in others for c in copy.hands[s]] + copy.deck
        rng.shuffle(pool)
        for s in others:
            k = len(copy.hands[s])
            copy.hands[s], pool = sorted(pool[:k]), pool[k:]
        copy.deck = pool
        return copy
    if game == "pachakuna":
        copy = module.from_dict(module.to_dict(state))
        rng.shuffle(copy.bag)
        return copy
    return None


def assert_hidden(text: str, forbidden: list[Secret], where: str) -> None:
    for secret in forbidden:
        if secret.needle is not None and secret.needle not in text:
            continue  # no match without it
        found = secret.pattern.search(text)
        assert found is None, f"{where} shows {secret.what} (seat {secret.owner}'s secret): {text!r}"


def line_mentions(line: str, name: str, card: str) -> bool:
    return (
        re.search(rf"\b{re.escape(name)}\b", line) is not None and re.search(rf"\b{card}\b", line) is not None
    )


class Table:
    """One game through the session service, checked after every move."""

    def __init__(self, service, game, options, people, computers, seed, channel):
        self.service, self.game, self.options = service, game, options
        self.people, self.computers, self.seed, self.channel = people, computers, seed, channel
        self.rng = random.Random(seed)
        self.module = engines.get(game).load()

    async def start(self):
        s = self.service
        await s.lobby.create(
            self.game, guild_id=GUILD, channel_id=self.channel, host_id=1, host_name=NAMES[0],
            options=self.options, seed=self.seed, max_players=self.people + self.computers,
        )  # fmt: skip
        for uid in range(2, self.people + 1):
            await s.lobby.join(self.channel, uid, NAMES[uid - 1])
        for _ in range(self.computers):
            await s.lobby.add_computer(self.channel, 1)
        result = await s.lobby.start(self.channel, 1)
        session = result.session
        n = len(session.seats)
        config = config_from_options(self.module.Config, n, session.row.options)
        self.oracle = Oracle(
            self.game, self.module, self.module.new_game(config, n, session.row.seed), session.names()
        )
        self.log_rows = 0
        await self.check(result, mover=None)
        return result

    def choose(self, state, seat) -> str:
        legal = list(self.module.legal_moves(state, seat))
        roll = self.rng.random()
        if roll < 0.5:
            view = self.module.view_for(state, seat)
            return str(self.module.computer_move(view, legal, self.rng))
        if roll < 0.75:
            private = [m for m in legal if self.module.move_privacy(state, seat, m).owner is not None]
            if private:
                return str(self.rng.choice(private))
        return str(self.rng.choice(legal))

    async def step(self) -> bool:
        session = await self.service.core.in_channel(self.channel)
        if session is None or session.status != "active":
            return False
        people = [s for s in session.waiting_on() if not s.computer]
        if not people:
            return False
        seat = self.rng.choice(people)
        move = self.choose(session.state, seat.seat)
        result = await self.service.play.play(self.channel, seat.user_id, move)
        await self.check(result, mover=seat.seat)
        return True

    async def check(self, result, mover: int | None) -> None:
        oracle, module, session = self.oracle, self.module, result.session
        oracle.advance(result.played)
        assert module.to_dict(oracle.state) == module.to_dict(session.state), "the oracle lost track"
        n = oracle.state.config.players
        names = session.names()
        first = self.log_rows + 1
        self.log_rows += len(result.played)
        records = await self.service.logbook.log(session, last=80)
        batch_numbers = {str(k) for k in range(first, self.log_rows + 1)}
        listing = texts.list_text(await self.service.core.live(GUILD))
        channel_text = texts.channel_text(session, result) if public.has_public_news(session, result) else ""
        batch = [r for r in records if str(r.number) in batch_numbers]
        turn_post = texts.board_text(session, batch)  # the turn's post, told from the log
        for reader in [*range(n), None]:
            forbidden = oracle.forbidden(reader)
            # the view of the session's state, which is the oracle's (their dicts are equal, above)
            view = module.view_for(session.state, reader)
            shown = jsonable(view)
            surfaces = {
                "the log": movetexts.log_text(session, records, reader),
                "the status": texts.status_text(
                    session, self.log_rows, records[-1] if records else None, reader
                ),
                "the event lines": "\n".join(
                    texts.event_lines(session, result.played, reader, channel=False)
                ),
                "the view": repr(shown),
            }
            surfaces["the turn's lines"] = "\n".join(texts.turn_lines(session, batch, reader=reader))
            if reader is None:
                surfaces["the channel message"] = channel_text
                surfaces["the turn post"] = turn_post
                surfaces["/game list"] = listing
            elif session.status == "active" and reader in session.to_move():
                legal = list(module.legal_moves(session.state, reader))
                found = choices.entries(module, session.state, reader, legal, names)
                surfaces["the private menu"] = "\n".join(f"{e.full} {e.group_title}" for e in found)
            if reader is not None and reader == mover:
                surfaces["the private reply"] = "\n".join(texts.own_lines(session, result.played, reader))
            for where, text in surfaces.items():
                assert_hidden(text, forbidden, f"{self.game}: {where} for {reader}")
            batch_lines = [
                line
                for where, text in surfaces.items()
                if where != "the view"
                for line in text.splitlines()
                if where != "the log" or line.split(".", 1)[0] in batch_numbers
            ]
            self.check_batch(reader, batch_lines, names)
            self.check_view(reader, view, shown)

    def check_batch(self, reader, lines, names) -> None:
        """Secrets this batch of moves created that no text of it may carry."""
        oracle = self.oracle
        for seat, card, knowers in oracle.batch_cards:
            if reader in knowers or card not in [c for c in self.held(seat)]:
                continue
            for line in lines:
                assert not line_mentions(line, names[seat], card), (
                    f"guacamole: {reader} reads which card {names[seat]} got unseen ({card}): {line!r}"
                )
        for seat, cell in oracle.batch_peeks:
            if reader == seat or any(
                cell in text for text in oracle.batch_texts if not text.startswith("peek")
            ):
                continue
            for line in lines:
                assert re.search(rf"\b{cell}\b", line) is None, (
                    f"tiwanaku: {reader} reads where a peek was: {line!r}"
                )

    def held(self, seat):
        from engines.guacamole.data import card_code

        return [card_code(c) for c in self.oracle.state.hands[seat]]

    def check_view(self, reader, view, shown) -> None:
        """``view``: the view of ``reader`` at the true state, ``shown`` its ``jsonable`` form."""
        module, state = self.module, self.oracle.state
        if self.game == "tiwanaku":
            own = set(state.peeks[reader]) if reader is not None else set()
            assert set(view.peeks) <= own, f"tiwanaku: view of {reader} holds another seat's peeks"
            if state.last and state.last.startswith("peek:") and reader != state.last_seat:
                assert state.last.split(":")[1] not in (view.last or ""), f"tiwanaku: view.last for {reader}"
        scrambled = scramble_for(self.game, module, state, reader, self.oracle_rng())
        if scrambled is not None:
            assert jsonable(module.view_for(scrambled, reader)) == shown, (
                f"{self.game}: the view of {reader} changes with things it cannot know"
            )

    def oracle_rng(self) -> random.Random:
        return random.Random(self.log_rows)


PLAYS = [
    # game, options, people, computers, seed, moves by people
    ("guanga", {"mode": "apprentice"}, 3, 0, 11, 80),
    ("guanga", {"mode": "apprentice", "stoppers": True}, 2, 2, 12, 80),
    ("tiwanaku", {}, 2, 1, 5, 150),
    ("tiwanaku", {"board": "short"}, 2, 0, 11, 150),
    ("pachakuna", {}, 2, 0, 3, 80),
    ("nowa_gwinea", {}, 2, 1, 8, 160),
    ("nowa_gwinea", {"boards": "each"}, 3, 0, 2, 200),
    ("guacamole", {}, 3, 1, 4, 200),
    ("guacamole", {}, 4, 0, 6, 200),
]


@pytest.mark.parametrize(
    ("game", "options", "people", "computers", "seed", "moves"),
    PLAYS,
    ids=[f"{p[0]}-{p[2]}+{p[3]}" for p in PLAYS],
)
async def test_no_surface_shows_another_seats_secret(database, game, options, people, computers, seed, moves):
    store = await database.open()
    try:
        service = SessionService(store)
        # A second live game on the server, so /game list has more than one line to leak from.
        other = Table(service, "nowa_gwinea", {}, 2, 0, 1, channel=900)
        await other.start()
        await other.step()
        table = Table(service, game, options, people, computers, seed, channel=100)
        await table.start()
        for _ in range(moves):
            if not await table.step():
                break
        counts = table.oracle.counts
        # The games must have met their secrets, or the test proved nothing.
        expected = {
            "guanga": ("keep",),
            "tiwanaku": ("peek",),
            "nowa_gwinea": ("hut", "round ends"),
            "guacamole": ("draw", "steal"),
            "pachakuna": (),
        }[game]
        for what in expected:
            assert counts[what] > 0, (
                f"{game}: no {what} happened in this game; pick another seed ({dict(counts)})"
            )
    finally:
        await store.close()


# ------------------------------------------------------------------ a secret kept for good, after the end

# Tiwanaku, seed 0, ann and bob: moves by the computer player (never a peek) until ann may peek.
PEEK_SEED = 0


async def peek_then_resign(tmp_path, name: str, cell: str):
    """A Tiwanaku game (seed 0) on its own SQLite file where ann peeks at ``cell`` and bob then
    resigns: (the store, the service, the finished session).  The twin games differ only there."""
    from bot.time.source import ManualClock
    from engines.core import rng_for
    from tests.conftest import Database

    store = await Database("sqlite", str(tmp_path / f"{name}.db")).open(ManualClock())
    service = SessionService(store)
    await service.lobby.create(
        "tiwanaku", guild_id=GUILD, channel_id=300, host_id=1, host_name="ann", options={}, seed=PEEK_SEED
    )
    await service.lobby.join(300, 2, "bob")
    session = (await service.lobby.start(300, 1)).session
    module, ann = session.engine, session.seat_of(1).seat
    for i in range(200):
        (seat,) = module.to_move(session.state)
        legal = list(module.legal_moves(session.state, seat))
        if seat == ann and f"peek:{cell}" in map(str, legal):
            break
        move = module.computer_move(module.view_for(session.state, seat), legal, rng_for(PEEK_SEED, "t", i))
        if str(move).startswith("peek"):
            move = next(m for m in legal if not str(m).startswith("peek"))
        user = 1 if seat == ann else 2
        session = (await service.play.play(300, user, str(move))).session
    else:
        raise AssertionError(f"ann never could peek at {cell}")
    result = await service.play.play(300, 1, f"peek:{cell}")
    assert any(f"under {cell}" in e.text for e in result.played[0].events)
    session = (await service.seats.resign(300, 2)).session
    assert session.status == "finished"
    return store, service, session


async def spectator_surfaces(tmp_path, service, session) -> dict[str, object]:
    """Everything a spectator (or bob, who resigned) can have of the finished game, by surface."""
    from bot import export, results
    from bot.history import History
    from bot.terminal import main

    assert session.reader_of(2) is None  # bob resigned: he reads as a spectator
    module = session.engine
    rows = await service.store.history.moves(session.id)
    records = await service.logbook.log(session, last=10**6)
    data = await export.export_session(service, session)
    path = tmp_path / f"export-{id(service)}.json"
    path.write_bytes(export.dump(data))
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as o, err.open("w") as e:
        code = main(["--replay", str(path), "--no-images"], stdout=o, stderr=e)
    assert code == 0, err.read_text()
    history = History(service)
    pages = []
    for number in range(len(rows) + 1):
        page = await history.page(session, number)
        pages.append(movetexts.history_text(session, page.number, page.shown, page.record, None))
        pages.append(repr(jsonable(module.view_for(page.state, None))))
        if page.record is not None:
            pages.append(public.seen(module, session.state, page.record, None).summary())
    return {
        "the export": export.dump(data).decode(),
        "the replay": out.read_text(),
        "the animated summary": await results.summary(service, session),
        "the results card": await results.card(service, session),
        "the history": "\n".join(pages),
        "the log": movetexts.log_text(session, records, None),
        "the status": texts.status_text(session, len(rows), records[-1], None),
        "the results": texts.board_text(session, records),
    }


async def test_a_peek_kept_for_good_is_on_no_surface_of_the_finished_game(tmp_path):
    """Every surface of a finished game reads the same whether ann peeked at A1 or elsewhere, and
    none says where she peeked; the export still replays, to the same result."""
    from bot import export

    store, service, session = await peek_then_resign(tmp_path, "a1", "A1")
    try:
        module = session.engine
        ann = session.seat_of(1).seat
        records = await service.logbook.log(session, last=10**6)
        # ann may read her own peek: there was a secret to keep
        assert "peek:A1" in movetexts.log_text(session, records, ann)
        other = next(
            str(m)[5:]
            for m in module.legal_moves((await export_state_before_peek(service, session)), ann)
            if str(m).startswith("peek:") and str(m) != "peek:A1"
        )
        seen_a1 = await spectator_surfaces(tmp_path, service, session)
    finally:
        await store.close()
    store2, service2, session2 = await peek_then_resign(tmp_path, "other", other)
    try:
        seen_other = await spectator_surfaces(tmp_path, service2, session2)
    finally:
        await store2.close()
    for where, shown in seen_a1.items():
        assert shown == seen_other[where], f"{where} differs with where ann peeked"
        if isinstance(shown, str):
            assert re.search(r"peek\W*A1|under A1", shown, re.I) is None, f"{where}: {shown}"
    data = export.load(seen_a1["the export"])
    secret = [m for m in data["moves"] if m.get("secret")]
    assert [m["move"] for m in secret] == [None] and secret[0]["secret"] == "peek"
    assert "seed" in data and all("after" not in m for m in data["moves"][data["moves"].index(secret[0]) :])
    assert "kept secret for good" in seen_a1["the replay"]


async def export_state_before_peek(service, session):
    """The state just before ann's peek (the second to last move: bob's resignation adds none)."""
    from bot.history import History

    total = await service.store.history.move_count(session.id)
    state, _ = await History(service).state_at(session, total - 1)
    return state


async def test_a_resigned_person_reads_as_a_spectator_and_a_timed_out_one_keeps_their_seat(service):
    """reader_of: the seat while the person holds it, also while the computer plays it after their
    time ran out; None once they resigned (and for anyone not seated)."""
    await service.lobby.create(
        "guacamole", guild_id=GUILD, channel_id=310, host_id=1, host_name="ann", options={}
    )
    for uid in (2, 3):
        await service.lobby.join(310, uid, NAMES[uid - 1])
    session = (await service.lobby.start(310, 1)).session
    seats = {uid: session.seat_of(uid).seat for uid in (1, 2, 3)}
    assert {uid: session.reader_of(uid) for uid in (1, 2, 3, 4)} == {**seats, 4: None}
    await service.store.games.set_seat_flags(session.id, seats[2], computer=True, resigned=False)  # a timeout
    session = (await service.seats.resign(310, 3)).session
    assert session.reader_of(2) == seats[2] and session.reader_of(3) is None
    assert session.seat_of(3).resigned  # acting still finds the seat, to say why it is refused


async def test_a_game_ended_by_resignation_keeps_the_secret_orders_out_of_the_results_chart(service):
    """A Guanga game that bob's resignation ends, while a kept order already counts for someone:
    the rules never showed the orders, so the results card's chart (posted in the channel)
    follows the scores everyone saw, the orders left out, as the board's header did."""
    from bot import results
    from engines.guanga.rules import breakdown

    await service.lobby.create(
        "guanga",
        guild_id=GUILD,
        channel_id=320,
        host_id=1,
        host_name="ann",
        options={"mode": "apprentice"},
        seed=1,
    )
    await service.lobby.join(320, 2, "bob")
    session = (await service.lobby.start(320, 1)).session
    module, rng = session.engine, random.Random(1)
    for _ in range(400):  # until a secret order counts for someone
        state = session.state
        if any(breakdown(state, s, with_order=False) != breakdown(state, s) for s in range(2)):
            break
        seat = min(module.to_move(state))
        move = module.computer_move(module.view_for(state, seat), list(module.legal_moves(state, seat)), rng)
        session = (await service.play.play(320, session.by_seat(seat).user_id, str(move))).session
    hidden = [float(breakdown(session.state, s, with_order=False)["total"]) for s in range(2)]
    assert hidden != [float(breakdown(session.state, s)["total"]) for s in range(2)]
    session = (await service.seats.resign(320, 2)).session
    assert session.status == "finished" and module.outcome(session.state) is None
    chart, _ = results.series(session, await service.store.history.moves(session.id))
    assert [line[-1] for line in chart] == hidden
    assert (await results.card(service, session))[:8] == b"\x89PNG\r\n\x1a\n"
