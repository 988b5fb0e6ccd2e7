"""People playing a whole game through the Discord stand-in, and what each turn cost them.

Three ways to play, as people do:

* ``menu``: the Play button under the latest board, then one click per move on the
  private menu that stays open through the turn (a group is opened first when the
  move sits in one);
* ``commands``: the game's own slash commands (``/guacamole dish``...), typing with
  autocomplete: the start of the group offered that holds the move, until the move
  itself is offered;
* ``typed``: ``/<game> move`` with the move typed out in full.

Each move is the one the game's computer player would choose for that seat
(seeded), so the games are the same on every run.  A :class:`Driver` plays, checks
after every action that the channel got a board exactly when a turn (or a round)
ended, that only the latest board has buttons and who was pinged, and counts per
turn the moves, channel posts, clicks, slash commands and autocomplete requests.
Used by ``tests/e2e/test_turns.py`` and ``bench/turns.py``.
"""

from __future__ import annotations

import asyncio
import statistics
from dataclasses import dataclass, field
from typing import Any

from bot.app import answering
from engines.core import rng_for
from tests.e2e.conftest import click_choice, menu_groups, menu_moves
from tests.support.polling import until

# The game-specific command that plays a move, by the move's kind: (command, option).
COMMANDS: dict[str, dict[str, tuple[str, str]]] = {
    "guacamole": {
        "free": ("guacamole prepare", "card"),
        "prepare": ("guacamole prepare", "card"),
        "dish": ("guacamole dish", "card"),
        "serve": ("guacamole dish", "card"),
        "cancel": ("guacamole dish", "card"),
        "draw": ("guacamole draw", "source"),
    },
    "tiwanaku": {
        "enter": ("tiwanaku explore", "step"),
        "walk": ("tiwanaku explore", "step"),
        "leave": ("tiwanaku explore", "step"),
        "divine": ("tiwanaku divine", "guess"),
    },
    "nowa_gwinea": {"build": ("nowa_gwinea place", "hut"), "gwinea": ("nowa_gwinea gwinea", "")},
}


@dataclass
class Turn:
    """What one turn of one person (or, in a simultaneous round, one person's part of it) cost."""

    number: int
    user: str
    style: str
    moves: int = 0
    clicks: int = 0
    slashes: int = 0
    autocompletes: int = 0
    answered: list = field(default_factory=list)  # the private answers to a commands player's steps
    selects: int = 0  # the most selects one menu step showed
    largest: int = 0  # the most options one select offered

    @property
    def answers(self) -> int:
        """The turn's private answers still standing (the bot removes a turn's earlier ones)."""
        return sum(not m.deleted for m in self.answered)


@dataclass
class Record:
    turns: dict[tuple[int, str], Turn] = field(default_factory=dict)
    posts: dict[int, int] = field(default_factory=dict)  # turn number -> channel posts it caused
    pings: dict[int, frozenset[int]] = field(default_factory=dict)  # turn number -> who its post pinged
    start_posts: int = 0
    end_posts: int = 0
    texts: list[str] = field(default_factory=list)  # every channel post, in order

    def of(self, style: str) -> list[Turn]:
        return [t for t in self.turns.values() if t.style == style]

    def mean(self, style: str, what: str) -> float:
        turns = self.of(style)
        return statistics.mean(getattr(t, what) for t in turns) if turns else 0.0


def is_results(message) -> bool:
    """The results card posted under a finished game's last board (its picture, in any language)."""
    return any(f.filename.endswith("-results.png") for f in message.files)


def lobby_button(message, action: str) -> str:
    """The custom_id of a lobby message's ``action`` button (join, leave, cpu, start), the same in
    every language (the labels are in the server's)."""
    return next(c for c in message.custom_ids if c.startswith(f"pk:lobby:{action}:"))


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral and not is_results(message)


async def settled(standin) -> None:
    """The gateway's events read (:meth:`StandIn.settle`) and every interaction the bot was
    answering answered, with what its callback does after the answer (a board's watchers and
    notices, a lobby's refresh): a check that something did not happen can fail once the bot has
    done what it would do, not only once it has read the events."""
    await standin.settle()
    running = answering()  # (called inside an answer, a test's stand-in for a step: not itself)
    if running:
        _, pending = await asyncio.wait(running, timeout=30)
        assert not pending, f"{len(pending)} interaction(s) still being answered after 30 s"


async def handled(event: str) -> None:
    """The bot's handlers of the gateway event ``event`` that are running (discord.py runs
    ``on_<event>`` in a task it names ``discord.py: on_<event>``) have run to their end."""
    name = f"discord.py: on_{event}"
    await asyncio.gather(*(t for t in asyncio.all_tasks() if t.get_name() == name))


async def board_recorded(standin, bot, chan, tries: int = 400) -> None:
    """Wait until the bot has recorded the latest board in ``chan`` as its game's board.  The bot
    records a board once Discord has answered its post, so a board seen in the channel may not be
    recorded yet, nor what the record carries (the moves the channel was told of, the board's
    link); bounded by a number of reads, not by a time."""

    async def recorded() -> bool:
        boards = [m for m in standin.messages(chan) if is_board(m)]
        session = await bot.sessions.core.in_channel(chan.id)
        return bool(boards) and session is not None and session.row.board_message_id == boards[-1].id

    await until(recorded, f"the latest board in #{chan.name} recorded as its game's board", tries=tries)


async def pachakuna_started(standin, bot, chan, host, guest, *, seed: int):
    """A P'achakuna game of ``host`` and ``guest`` (two players, always: its ``new`` has no
    players option) opened in ``chan`` and started; who is to move, and its session."""
    bot.sessions.new_seed = lambda: seed
    lobby = await standin.slash(host, chan, "pachakuna new", thread=False)
    await standin.click(guest, lobby.message, "Join")
    await standin.click(host, lobby.message, "Start")
    await standin.next_message(chan, is_board)
    return await to_move(bot, chan, (host, guest))


async def to_move(bot, chan, users):
    """Which of ``users`` is to move in the game in ``chan`` (one seat to move), and its session."""
    session = await bot.sessions.core.in_channel(chan.id)
    (seat,) = session.to_move()
    return next(u for u in users if u.id == session.by_seat(seat).user_id), session


class Driver:
    """Plays the game in ``chan`` to its end; ``styles`` maps each user to how they play."""

    def __init__(self, standin, bot, chan, styles: dict[Any, str], *, seed: int = 1):
        self.standin, self.bot, self.chan = standin, bot, chan
        self.styles = styles
        self.users = {u.id: u for u in styles}
        self.seed = seed
        self.record = Record()
        self.menus: dict[int, tuple[int, Any]] = {}  # user id -> (turn number, private menu message)
        self.answers: dict[int, tuple[int, Any]] = {}  # user id -> (turn number, latest answer)
        self.actions = 0

    # ------------------------------------------------------------------ the channel

    def posts(self) -> list:
        return [m for m in self.standin.messages(self.chan) if not m.ephemeral and not m.deleted]

    def boards(self) -> list:
        return [m for m in self.posts() if is_board(m)]

    def check_live_boards(self, active: bool) -> None:
        """Only the latest board has buttons (Play and My view while the game runs)."""
        boards = self.boards()
        for old in boards[:-1]:
            assert not old.components, f"an old board still has buttons: {old.content[:60]!r}"
        if boards:
            labels = {b.get("label") for b in boards[-1].buttons}
            assert labels == ({"Play", "My view"} if active else set()), labels

    async def session(self):
        return await self.bot.sessions.core.latest(self.chan.id)

    # ------------------------------------------------------------------ playing

    async def play(self, *, limit: int = 3000) -> Record:
        session = await self.session()
        assert session.status == "active"
        self.record.start_posts = len(self.posts())
        self.record.texts = [m.content for m in self.posts()]
        while session.status == "active" and self.actions < limit:
            engine = session.engine
            acting = sorted(session.to_move())
            # In a simultaneous round people take turns at the keyboard; in a turn-based game one acts.
            seat = acting[self.actions % len(acting)]
            who = session.by_seat(seat)
            user = self.users[who.user_id]
            legal = list(engine.legal_moves(session.state, seat))
            rng = rng_for(self.seed, "driver", self.actions)
            target = str(engine.computer_move(engine.view_for(session.state, seat), legal, rng))
            number = engine.turn_number(session.state)
            turn = self.record.turns.setdefault(
                (number, user.name), Turn(number, user.name, self.styles[user])
            )
            before = len(self.posts())
            await getattr(self, f"by_{self.styles[user]}")(session, seat, user, target, turn)
            turn.moves += 1
            self.actions += 1
            # The mover's answer comes after the board post (the bot posts, then confirms), so the
            # channel is complete for this action once the answer is in.
            session = await self.session()
            new = self.posts()[before:]
            self.record.texts.extend(m.content for m in new)
            ended = session.status != "active" or engine.turn_number(session.state) != number
            if ended:
                if session.status != "active":  # the last board, then the results card under it
                    assert len(new) == 2 and is_results(new[1]), [m.content[:40] for m in new]
                    new = new[:1]
                assert len(new) == 1, f"turn {number} ended with {len(new)} channel posts"
                assert is_board(new[0])
                self.record.posts[number] = self.record.posts.get(number, 0) + len(new)
                self.record.pings[number] = new[0].pinged
                if session.status == "active":
                    waiting = {session.by_seat(s).user_id for s in session.to_move()}
                    assert new[0].pinged == frozenset(waiting), (new[0].pinged, waiting)
                else:
                    self.record.end_posts = 1
            else:
                assert not new, f"a step inside turn {number} posted {[m.content[:40] for m in new]}"
            self.check_live_boards(session.status == "active")
        assert session.status != "active", "the game did not end"
        return self.record

    async def open_menu(self, session, user, turn: Turn):
        """The private menu for this turn: the one still open, else Play on the latest board."""
        number = session.engine.turn_number(session.state)
        held = self.menus.get(user.id)
        if held is not None and held[0] == number and (menu_moves(held[1]) or menu_groups(held[1])):
            return held[1]
        board = self.boards()[-1]
        r = await self.standin.click(user, board, "Play")
        turn.clicks += 1
        menu = await r.original()
        assert menu.ephemeral and "⚠️" not in menu.text, menu.text
        return menu

    @staticmethod
    def saw(turn: Turn, menu) -> None:
        """Count what one step of the menu showed: its selects, and the largest one's options."""
        selects = menu.selects
        turn.selects = max(turn.selects, len(selects))
        turn.largest = max([turn.largest] + [len(s["options"]) for s in selects])

    async def by_menu(self, session, seat, user, target: str, turn: Turn) -> None:
        menu = await self.open_menu(session, user, turn)
        self.saw(turn, menu)
        engine = session.engine
        words = engine.move_words(session.state, seat, engine.parse_move(target))
        way = (words.kind, *(level.key for level in words.levels()))  # the steps down to the move
        while target not in menu_moves(menu):  # down the menu's steps: the kind, the piece, the region
            groups = menu_groups(menu)
            on_the_way = [v for v in groups if way[: len(step_of(v))] == step_of(v)]
            assert on_the_way, (target, way, list(groups), list(menu_moves(menu))[:5])
            value = max(on_the_way, key=lambda v: len(step_of(v)))
            edits = menu.edits
            r = await self.standin.select(user, menu, groups[value][0], [value])
            turn.clicks += 1
            menu = await r.original(lambda m, before=edits: m.edits > before)
            self.saw(turn, menu)
        custom_id, value = menu_moves(menu)[target]
        edits = menu.edits
        r = await click_choice(self.standin, user, menu, custom_id, value)
        turn.clicks += 1
        answer = await r.original(lambda m: m.edits > edits)
        assert f"You played `{target}`" in answer.text, answer.text
        self.menus[user.id] = (turn.number, answer)

    async def by_commands(self, session, seat, user, target: str, turn: Turn) -> None:
        engine = session.engine
        kind = engine.move_words(session.state, seat, engine.parse_move(target)).kind
        game = session.info.name
        path, option = COMMANDS.get(game, {}).get(kind, (f"{game} move", "move"))
        if not option:  # a command without a value (/nowa_gwinea gwinea)
            r = await self.standin.slash(user, self.chan, path)
            turn.slashes += 1
        else:
            typed = ""
            while True:
                choices = await self.standin.autocomplete(user, self.chan, path, option, **{option: typed})
                turn.autocompletes += 1
                values = [c["value"] for c in choices]
                if target in values:
                    break
                longer = [v for v in values if target.startswith(v) and len(v) > len(typed)]
                assert longer, f"{target!r} is not offered after typing {typed!r}: {values}"
                typed = max(longer, key=len)
            r = await self.standin.slash(user, self.chan, path, **{option: target})
            turn.slashes += 1
        answer = await self.turn_answer(r, user, turn)
        assert "You played" in answer.text, answer.text

    async def turn_answer(self, r, user, turn: Turn):
        """The private message that answers a command's step; the same turn's earlier answer is
        removed by the bot, so ``turn.answers`` counts the answers a turn leaves standing."""
        own = await r.original()
        earlier = self.answers.get(user.id)
        if earlier is not None and earlier[0] == turn.number:
            await self.standin.wait_for(lambda: earlier[1].deleted, what="the turn's earlier answer removed")
        self.answers[user.id] = (turn.number, own)
        turn.answered.append(own)
        return own

    async def by_typed(self, session, seat, user, target: str, turn: Turn) -> None:
        r = await self.standin.slash(user, self.chan, f"{session.info.name} move", move=target)
        turn.slashes += 1
        answer = await self.turn_answer(r, user, turn)
        assert "You played" in answer.text, answer.text


def step_of(value: str) -> tuple[str, ...]:
    """The step a menu's choice opens, ``g:build:F/B`` -> ``("build", "F", "B")``."""
    kind, _, keys = value[2:].partition(":")
    return (kind, *(key for key in keys.split("/") if key))


async def start(standin, bot, chan, game: str, users, *, seed: int, **options):
    """Open ``game`` in ``chan`` with ``users`` seated (the first is the host) and start it."""
    bot.sessions.new_seed = lambda: seed
    host, *guests = users
    lobby = await standin.slash(host, chan, f"{game} new", thread=False, players=len(users), **options)
    for guest in guests:
        await standin.click(guest, lobby.message, "Join")
    await standin.next_message(chan, lambda m: "table is full" in m.content and host.id in m.pinged)
    standin.skip_messages(chan)
    await standin.click(host, lobby.message, "Start")
    await standin.next_message(chan, is_board)
    return lobby
