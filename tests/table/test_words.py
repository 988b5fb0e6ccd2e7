"""Words people read: counts with their nouns, and the wording the table and the games use.

Every text where a count meets a noun goes through :func:`engines.core.plural`;
a scan of the source holds that rule, and every template that takes a count is
rendered here with 0, 1 and 2.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engines
from bot import choices, texts
from bot.sessions import RatingChange, Seat, Session
from bot.storage import SessionRow
from cogs.table import record
from engines.core import Event, MoveWords, config_from_options, options_of, plural
from languages import language

ROOT = Path(__file__).resolve().parents[2]
NOUNS = (
    r"points?|moves?|games?|wins?|cards?|huts?|cubes?|shells?|rounds?|turns?|players?|seats?|llamas?|"
    r"patch(?:es)?|hours?|explorers?|tiles?|resources?|colours?|dish(?:es)?|stones?|actions?|"
    r"water holes?|fruit bush(?:es)?|steps?|lines?|legal moves?|more turns?"
)
BAD = (
    re.compile(
        r"(?<![\d.,])1 (points|moves|games|wins|cards|huts|cubes|shells|rounds|turns|players|seats|llamas|"
        r"patches|hours|explorers|tiles|resources|colours|dishes|stones|actions|water holes|fruit bushes|"
        r"steps|lines|legal moves|more turns)\b"
    ),
    re.compile(
        r"(?<![\d.,])[02] (point|move|game|win|card|hut|cube|shell|round|turn|player|seat|llama|patch|"
        r"hour|explorer|tile|resource|colour|dish|stone|action|water hole|fruit bush|step|line|legal move|"
        r"more turn)\b(?!s|es)"
    ),
)


def bad_plurals(text: str) -> list[str]:
    return [m.group(0) for pattern in BAD for m in pattern.finditer(text)]


def test_plural():
    assert [plural(n, "point") for n in (0, 1, 2, -1, 1.5, 12.0)] == [
        "0 points",
        "1 point",
        "2 points",
        "-1 point",
        "1.5 points",
        "12 points",
    ]
    assert plural(1, "patch", "patches") == "1 patch" and plural(3, "patch", "patches") == "3 patches"
    assert bad_plurals("1 points, 2 move, 0 game") == ["1 points", "2 move", "0 game"]
    assert not bad_plurals("1 point, 2 moves, 10 points, 21 points, 1.5 points")


NOT_COUNTS = re.compile(r"title|name|NAMES|marker|info\.name")


def test_no_count_meets_a_noun_outside_the_helper():
    """No f-string in the table, the cogs or the engines writes ``{n} points``: counts go through
    ``plural`` (names such as ``{title} game`` and ranges such as ``2 to {n} players`` are fine)."""
    noun = re.compile(rf"^ (?:{NOUNS})\b")
    found = []
    for folder in ("bot", "cogs", "engines"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.JoinedStr):
                    continue
                parts = node.values
                for i, (value, after) in enumerate(zip(parts, parts[1:], strict=False)):
                    if not (isinstance(value, ast.FormattedValue) and isinstance(after, ast.Constant)):
                        continue
                    if not isinstance(after.value, str) or not noun.match(after.value):
                        continue
                    expr = ast.unparse(value.value)
                    before = parts[i - 1].value if i and isinstance(parts[i - 1], ast.Constant) else ""
                    if NOT_COUNTS.search(expr) or str(before).endswith((" to ", "-")):
                        continue
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {{{expr}}}{after.value[:20]}")
    assert not found, "counts written without plural():\n" + "\n".join(found)


# ------------------------------------------------------------------ every count template, 0 1 2


def session_of(
    game: str, *, seats: int, max_players: int, status: str = "lobby", options=None, **row
) -> Session:
    info = engines.get(game)
    module = info.load()
    config = config_from_options(module.Config, max(seats, info.min_players), options or {})
    fields = dict(
        id=7,
        game=game,
        guild_id=1,
        channel_id=5,
        host_id=100,
        status=status,
        options=options_of(config),
        max_players=max_players,
        seed=1,
        state=None,
        version=1,
        lobby_message_id=None,
        outcome=None,
        end_reason=None,
        created_at="",
        updated_at="",
        finished_at=None,
    )
    fields.update(row)
    people = [Seat(i, None, 100 + i, f"P{i}", False, False) for i in range(seats)]
    return Session(row=SessionRow(**fields), seats=people, info=info)


def count_texts(n: int) -> list[str]:
    """Every template of the table that takes a count, rendered with ``n``."""
    out = []
    lobby = session_of("nowa_gwinea", seats=max(n, 1), max_players=max(n, 1))
    out += [texts.lobby_text(lobby), texts.full_table_text(lobby), texts.list_line(lobby)]
    wide = session_of("guacamole", seats=max(n, 1), max_players=4)
    out += [texts.lobby_text(wide), texts.list_line(wide)]
    out.append(texts.status_text(wide, n))
    out.append(record(n, n))
    out += texts.rating_lines([RatingChange(1, "Ann", 0.0, float(n))])
    out.append(choices.Pick("g:k:", "x", plural(n, "move")).description or "")
    entries = [choices.Entry(f"m{i}", "take", f"take {i}", "A", "Pile A:") for i in range(n + 30)]
    out += [name for name, _ in choices.complete(entries, "", str.title)]
    many = [
        choices.Entry(f"{g}{i}", "take", "x", g, f"Pile {g}:")
        for g in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for i in range(n + 1)
    ]
    out += [name for name, _ in choices.complete(many, "", str.title)]
    return out


def engine_texts(n: int) -> list[str]:
    """Engine events and refusals that take a count, with ``n``."""
    from engines.nowa_gwinea import rules as ng
    from engines.tiwanaku import rules as tw

    out = [tw._cube_text([n, 0, 0, 0]), tw._cube_text([n, n, 0, 0]), tw.cubes_of("S" * n)]
    out.append(f"{plural(n, 'point')} ({plural(n, 'water hole')}, {plural(n, 'fruit bush', 'fruit bushes')})")
    state = ng.new_game(config_from_options(ng.Config, 2, {}), 2, 3)
    events = ng._end_round(state, None)
    out += [e.text for e in events]
    return out


@pytest.mark.parametrize("n", [0, 1, 2])
def test_every_count_template_says_its_plural_right(n):
    texts = count_texts(n) + engine_texts(n)
    assert texts
    bad = {t: bad_plurals(t) for t in texts if bad_plurals(t)}
    assert not bad, bad


def test_the_turn_posts_of_whole_games_say_plurals_right():
    """Every event of seeded games of the five games, as the channel and the players read it."""
    from engines.core import rng_for

    for game, players in (
        ("guacamole", 3),
        ("tiwanaku", 2),
        ("nowa_gwinea", 2),
        ("guanga", 2),
        ("pachakuna", 2),
    ):
        m = engines.get(game).load()
        for seed in (1, 2):
            state = m.new_game(config_from_options(m.Config, players, {}), players, seed)
            for i in range(3000):
                if m.outcome(state) is not None:
                    break
                seat = min(m.to_move(state))
                legal = list(m.legal_moves(state, seat))
                move = m.computer_move(m.view_for(state, seat), legal, rng_for(seed, "words", i))
                state, events = m.apply_move(state, seat, move)
                for e in events:
                    for text in (e.text, e.public_text or ""):
                        assert not bad_plurals(text), (game, text)
            assert m.outcome(state) is not None


# ------------------------------------------------------------------ the wording items


def test_a_round_ended_by_done_names_no_caller():
    """When everyone says done, nobody called: the post says who gets the fruit bonus and why."""
    from engines.nowa_gwinea import rules as ng

    state = ng.new_game(config_from_options(ng.Config, 2, {}), 2, 3)
    state, _ = ng.apply_move(state, 0, ng.Done())
    state, events = ng.apply_move(state, 1, ng.Done())
    text = " ".join(e.text for e in events)
    assert "Caller" not in text and "Nobody called Gwinea" in text


def test_a_call_tells_who_was_still_building():
    """Seat 0 builds alone and calls; seat 1, still building, is told its village scores as it stands."""
    from engines.core import rng_for
    from engines.nowa_gwinea import rules as ng
    from engines.nowa_gwinea.ai import computer_move

    calls = 0
    for seed in range(1, 8):
        state = ng.new_game(config_from_options(ng.Config, 2, {}), 2, seed)
        for i in range(60):
            legal = ng.legal_moves(state, 0)
            move = computer_move(ng.view_for(state, 0), legal, rng_for(seed, i))
            state, events = ng.apply_move(state, 0, move)
            if not isinstance(move, ng.Place):
                break
        if isinstance(move, ng.Gwinea):
            calls += 1
            texts = [e.text for e in events]
            assert "{p1} was still building when {p0} called: {p1}'s village scores as it stands." in texts
    assert calls


def test_tiwanaku_trades_in_words():
    from engines.tiwanaku import rules as tw

    assert tw.cubes_of("DD") == "two desert cubes"
    assert tw.cubes_of("SD") == "a swamp cube and a desert cube"


async def test_not_your_turn_says_whose_turn_it_is(service):
    await service.lobby.create("tiwanaku", guild_id=1, channel_id=9, host_id=1, host_name="Ann", seed=3)
    await service.lobby.join(9, 2, "Bob")
    session = (await service.lobby.start(9, 1)).session
    (seat,) = session.to_move()
    waiting = session.by_seat(seat)
    other = 1 if waiting.user_id == 2 else 2
    from engines.core import NotYourTurn

    with pytest.raises(NotYourTurn, match=f"it is not your turn: it is {waiting.name}'s turn"):
        await service.play.play(9, other, "+A1")


async def test_no_game_here_names_the_real_commands(service):
    from bot.sessions import NoGameHere

    with pytest.raises(NoGameHere) as refused:
        await service.core.require(12345)
    text = str(refused.value)
    assert "<game>" not in text and "/guacamole new" in text and "/tiwanaku new" in text
    assert "<game>" not in texts.list_text([])


def test_lobby_counts_and_options_in_words():
    """ "3 of 3 seated, 2 needed" becomes "the table is full"; options show in words, defaults left out."""
    full = session_of("guacamole", seats=3, max_players=3)
    assert "The table is full (3 seats): anyone seated can press Start." in texts.lobby_text(full)
    waiting = session_of("guacamole", seats=1, max_players=4)
    assert "1 seat of 4 taken" in texts.lobby_text(waiting) and "at least 2 players" in texts.lobby_text(
        waiting
    )
    ready = session_of("guacamole", seats=2, max_players=4)
    assert "ready to start" in texts.lobby_text(ready)
    ng = session_of("nowa_gwinea", seats=1, max_players=2, options={"fruit_for_all": True})
    text = texts.lobby_text(ng)
    assert (
        "Options: fruit for all: 2 per fruit bush for whoever neither calls nor covers the water holes needed"
        in text
    )
    assert "hard_seats" not in text and "False" not in text
    plain = session_of("nowa_gwinea", seats=1, max_players=2)
    assert "Options: standard rules" in texts.lobby_text(plain)
    guac = session_of("guacamole", seats=1, max_players=2, options={"dishes_per_turn": 0})
    assert "Options: no limit on new dishes per turn" in texts.lobby_text(guac)


@pytest.mark.parametrize(
    ("code", "anyone", "host"),
    [("en", "anyone seated", "host"), ("es", "quien tenga asiento", "lleva la sala")],
)
def test_the_lobby_says_anyone_seated_may_start(code, anyone, host):
    """Any seated player may press Start, yet the lobby said the host presses it (and the thread's
    first message that the host starts the game): the ready and full lobbies and the welcome say
    anyone seated may, in both languages (the seat line still names the host)."""
    t = language(code)
    ready = session_of("guacamole", seats=2, max_players=4, lobby_channel_id=3)
    full = session_of("guacamole", seats=3, max_players=3)
    for said in (texts.lobby_text(ready, t), texts.lobby_text(full, t), texts.thread_welcome(ready, t)):
        starting = [line for line in re.split(r"[.;]", said) if re.search(r"start|empez", line, re.I)]
        assert starting and all(anyone in line and host not in line for line in starting), said


def test_move_words_for_the_issues_examples():
    """``+B1`` is "enter at B1"; ``done`` reads "serve the dish"; groups count their moves."""
    from engines.guacamole import WORDS as GW
    from engines.guacamole import move_words as guac_words
    from engines.guacamole.moves import Done
    from engines.tiwanaku import WORDS as TW
    from engines.tiwanaku import move_words as tiw_words
    from engines.tiwanaku.moves import Enter

    tiw = engines.get("tiwanaku").load()
    state = tiw.new_game(config_from_options(tiw.Config, 2, {}), 2, 1)
    assert tiw_words(state, 0, Enter(1, 0)).full(TW) == "enter at B1"
    assert guac_words(None, 0, Done()).label(GW) == "serve the dish"
    assert MoveWords("k", "x", group="g").group_label({"group.k": "G"}) == "G"
    # a group of the kind that reads otherwise (the asker's own) has its own message
    own = MoveWords("k", "x", group="g", group_text="group.k.own")
    assert own.group_label({"group.k": "G", "group.k.own": "Yours"}) == "Yours"
    assert [level.text for level in own.levels()] == ["group.k.own"]
    # a label that says the whole move stands alone: no group's words before it, in a menu either
    whole = MoveWords("k", "x", group="g", whole=True)
    assert whole.full({"group.k": "G", "x": "G and more"}) == "G and more"
    (entry,) = choices.entries(_Words(whole), None, 0, ["m"], [])
    assert entry.full == entry.label == "G and more" and entry.group_title == "G"


class _Words:
    """An engine of one move, described by ``words``."""

    WORDS = {"group.k": "G", "x": "G and more"}

    def __init__(self, words: MoveWords):
        self.words = words

    def move_words(self, state, seat, move) -> MoveWords:
        return self.words


def test_event_kind_end_is_left_out_of_the_last_post_only():
    """The engine's own summary of the end is not repeated under the outcome."""
    session = session_of("nim", seats=2, max_players=2, status="finished")
    from bot.public import MoveRecord
    from bot.texts import turn_lines

    record_ = MoveRecord(0, "A1", False, (Event("{p0} took 1"), Event("{p0} wins", kind="end")), None, 1)
    assert turn_lines(session, [record_], finished=True) == ["P0 took 1."]
