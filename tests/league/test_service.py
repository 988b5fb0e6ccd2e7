"""The league service without Discord: whole seasons on both back ends, time moved by the test."""

from __future__ import annotations

import csv
import io
import random

import pytest

from bot.league.service import LeagueError, LeagueService
from bot.storage.leagues import DEADLINE_JOB, ROUND_JOB

GUILD = 9
DAY = 86400.0


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def play_out(service, session, *, limit=3000):
    """People play ``session`` to its end, each move the one the computer player would choose
    (seeded), sent as the person's own."""
    channel = session.row.channel_id
    rng = random.Random(session.id)
    for _ in range(limit):
        session = await service.core.get(session.id)
        if session.status != "active":
            return session
        seat = session.waiting_on()[0]
        module = session.engine
        legal = list(module.legal_moves(session.state, seat.seat))
        move = module.computer_move(module.view_for(session.state, seat.seat), legal, rng)
        await service.play.play(channel, seat.user_id, str(move))
    raise AssertionError("the game did not end")


async def open_games(leagues, opened, names, channels):
    sessions = []
    for game in opened.games:
        channel = next(channels)
        sessions.append(await leagues.open_game(opened.league, game, channel, names))
    return sessions


async def new_league(leagues, **values):
    """A league with the test server, channel and organiser."""
    return await leagues.create(guild_id=GUILD, channel_id=50, organiser_id=1, **values)


async def started_with(leagues, names, **values):
    """A league of ``values`` that the players ``names`` (user id: name) signed up for, started."""
    league = await new_league(leagues, **values)
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    return league


def counter(start):
    n = start
    while True:
        n += 1
        yield n


async def test_a_swiss_season_of_seven_in_three_player_guacamole(leagues, service, clock):
    store = service.store
    league = await new_league(
        leagues,
        name="Guacamole autumn",
        game="guacamole",
        format="swiss",
        group_size=3,
        rounds=3,
        days=7,
        seed=11,
    )
    assert league.points == [2.0, 1.0, 0.0] and league.bye_points == 1.0
    names = {uid: f"player{uid}" for uid in range(101, 108)}
    for uid, name in names.items():
        assert "signed up" in await leagues.join(league, uid, name)
    with pytest.raises(LeagueError, match="already signed up"):
        await leagues.join(league, 101, "again")
    league, first = await leagues.start(league)
    assert first == clock.time() and (await store.jobs.job(ROUND_JOB, str(league.id))).due_at == first
    channels = counter(1000)
    byes_seen = []
    for number in (1, 2, 3):
        opened = await leagues.open_round(league.id, number)
        assert opened is not None and await leagues.open_round(league.id, number) is None
        assert len(opened.games) == 2 and len(opened.byes) == 1
        everyone = sorted(u for g in opened.games for u in g.players) + opened.byes
        assert sorted(everyone) == sorted(names)
        byes_seen += opened.byes
        sessions = await open_games(leagues, opened, names, channels)
        assert all(s.status == "active" and len(s.seats) == 3 for s in sessions)
        await play_out(service, sessions[0])  # one game played by its people
        clock.advance(7 * DAY)
        assert (await store.jobs.job(DEADLINE_JOB, f"{league.id}:{number}")).due_at <= clock.time()
        finished = await leagues.round_deadline(league.id, number)  # the other one, by the computer
        assert len(finished) == 1 and finished[0].finished
        games = await store.leagues.league_games(league.id, number)
        assert all(g.status == "finished" for g in games)
        assert all(
            sorted(s.place for s in g.seats) == [1, 2, 3] or len({s.place for s in g.seats}) < 3
            for g in games
        )
    assert len(set(byes_seen)) == 3  # the bye went to a different player each round
    table = await leagues.standings(await store.leagues.league(league.id))
    assert [s.row.rank for s in table] == list(range(1, 8))
    total = sum(s.row.points for s in table)
    assert total == pytest.approx(6 * 3 + 3 * 1.0)  # six games worth 3 points, three byes worth 1
    assert all(s.row.games + s.row.byes == 3 for s in table)
    exported = list(csv.reader(io.StringIO(await leagues.export(await store.leagues.league(league.id)))))
    blank = exported.index([])
    assert exported[0][:4] == ["rank", "player", "user_id", "points"] and len(exported[1:blank]) == 7
    assert exported[1][1] == table[0].name and float(exported[1][3]) == table[0].row.points
    rated, column = await leagues.rating_map(league), exported[0].index("rating")
    cells = {int(r[2]): r[column] for r in exported[1:blank]}  # a dash in the standings: empty here
    assert {u for u, c in cells.items() if c == ""} == set(names) - set(rated), (cells, rated)
    results = exported[blank + 2 :]
    assert (
        len([r for r in results if r[1] != "bye"]) == 18 and len([r for r in results if r[1] == "bye"]) == 3
    )
    kind = exported[blank + 1].index("bye_kind")
    assert exported[blank + 1][-1] == "never_played" and exported[0][-3:-1] == ["dropped", "dropped_round"]
    assert [r[kind] for r in results if r[1] == "bye"] == ["pairing"] * 3  # what the pairing gave
    assert all(r[kind] == "" and r[-1] == "" for r in results if r[1] != "bye")  # every game was played
    champion = await leagues.champion(await store.leagues.league(league.id))
    assert champion == int(table[0].row.player)
    assert (await store.leagues.league(league.id)).status == "finished"


async def test_a_single_elimination_bracket_of_five_in_pachakuna(leagues, service, clock):
    store = service.store
    league = await new_league(
        leagues,
        name="Cup",
        game="pachakuna",
        format="elimination",
        group_size=2,
        days=3,
        seed=2,
    )
    names = {uid: f"p{uid}" for uid in range(201, 206)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    assert league.rounds == 3  # a bracket of 8
    channels = counter(2000)
    opened = await leagues.open_round(league.id, 1)
    assert len(opened.games) == 1 and len(opened.byes) == 3  # the top three seeds wait
    for number in (1, 2, 3):
        if number > 1:
            opened = await leagues.open_round(league.id, number)
        sessions = await open_games(leagues, opened, names, channels)
        assert len(sessions) == {1: 1, 2: 2, 3: 1}[number]
        clock.advance(3 * DAY)
        await leagues.round_deadline(league.id, number)
    bracket = await leagues.bracket(await store.leagues.league(league.id))
    champion = await leagues.champion(await store.leagues.league(league.id))
    assert champion is not None and str(champion) == bracket.champion
    final = (await store.leagues.league_games(league.id, 3))[0]
    assert champion in final.players


async def test_a_player_dropped_mid_season_forfeits_their_games(leagues, service, clock):
    store = service.store
    league = await new_league(
        leagues,
        name="Nim league",
        game="nim",
        format="round_robin",
        group_size=2,
        days=1,
        seed=4,
    )
    names = {uid: f"n{uid}" for uid in (301, 302, 303, 304)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    with pytest.raises(LeagueError, match="only a running league"):
        await leagues.drop(league, 301)
    league, _ = await leagues.start(league)
    assert league.rounds == 3
    channels = counter(3000)
    opened = await leagues.open_round(league.id, 1)
    sessions = await open_games(leagues, opened, names, channels)
    game_of_301 = next(g for g in opened.games if 301 in g.players)
    other = next(u for u in game_of_301.players if u != 301)
    results = await leagues.drop(await store.leagues.league(league.id), 301)
    assert len(results) == 1 and results[0].finished  # a two-player game ends at once
    (game,) = [g for g in await store.leagues.league_games(league.id, 1) if g.id == game_of_301.id]
    by = {s.user_id: s for s in game.seats}
    assert by[301].forfeit and by[301].place == 2 and by[other].place == 1 and by[other].points == 1.0
    with pytest.raises(LeagueError, match="dropped already"):
        await leagues.drop(await store.leagues.league(league.id), 301)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    for number in (2, 3):
        opened = await leagues.open_round(league.id, number)
        sessions = await open_games(leagues, opened, names, channels)
        assert len([s for s in sessions if s is not None]) == 1  # 301's game is not played
        clock.advance(DAY)
        await leagues.round_deadline(league.id, number)
    games = await store.leagues.league_games(league.id)
    assert all(g.status == "finished" for g in games) and len(games) == 6
    mine = [g for g in games if 301 in g.players]
    assert len(mine) == 3 and all({s.user_id: s for s in g.seats}[301].points == 0.0 for g in mine)
    table = await leagues.standings(await store.leagues.league(league.id))
    assert table[-1].row.player == "301" and table[-1].dropped
    exported = list(csv.reader(io.StringIO(await leagues.export(await store.leagues.league(league.id)))))
    rows = {
        r["user_id"]: r
        for r in (dict(zip(exported[0], r, strict=True)) for r in exported[1 : exported.index([])])
    }
    marks = {u: (r["dropped"], r["dropped_round"]) for u, r in rows.items()}
    assert marks.pop("301") == ("yes", "1") and set(marks.values()) == {("", "")}
    # round 1's game was opened before the drop; rounds 2 and 3 scored 301's games, never played
    assert (rows["301"]["games"], rows["301"]["games_not_played"]) == ("1", "2")
    assert await leagues.champion(await store.leagues.league(league.id)) != 301


async def test_bad_league_settings_are_refused(leagues):
    base = dict(
        guild_id=GUILD,
        channel_id=50,
        organiser_id=1,
        name="X",
        game="guacamole",
        format="swiss",
        group_size=3,
        rounds=3,
    )
    for change, words in (
        ({"name": "  "}, "needs a visible character"),
        ({"name": "\u200b\u200f\u2060"}, "needs a visible character"),
        ({"name": "x" * 61}, "1 to 60 characters"),
        ({"game": "chess"}, "not a game here"),
        ({"format": "ladder"}, "format is one of"),
        ({"group_size": 7}, "seat 2 to 6"),
        ({"format": "elimination"}, "two-player games"),
        ({"rounds": 0}, "needs its number of rounds: give rounds, from 1 to 30"),
        ({"rounds": 31}, "1 to 30 rounds, not 31"),
        ({"days": 0}, "at most 60 days, not 0$"),  # each refusal names the value it refuses
        ({"days": 61.5}, "at most 60 days, not 61.5$"),
        ({"days": float("nan")}, "at most 60 days, not nan$"),
        ({"points": [1, 2, 0]}, r"may not rise .*, not 1,2,0$"),
        ({"points": [1, 0]}, "3 numbers of points, one per place, none negative; not 1,0$"),
        ({"points": [3, -1, 0]}, "none negative; not 3,-1,0$"),
        ({"points": [1e308, 1e308, 0]}, "a place scores at most 1000 points, not 1e\\+308,1e\\+308,0$"),
        ({"points": [1000.5, 1, 0]}, "at most 1000 points, not 1000.5,1,0$"),
        ({"options": {"mode": "nonsense"}}, "mode"),
    ):
        with pytest.raises(LeagueError, match=words):
            await leagues.create(**{**base, **change})
    await leagues.create(**base)
    with pytest.raises(LeagueError, match="already has a league called"):
        await leagues.create(**{**base, "name": " x "})


async def test_a_league_s_settings_are_checked_in_a_fixed_order(leagues):
    """With several settings wrong, the refusal names one, always the same: each put right, the
    next is named, until the league is created."""
    where = {"guild_id": GUILD, "channel_id": 50, "organiser_id": 1}
    await leagues.create(**where, name="Taken", game="nim", format="swiss", group_size=2, rounds=3)
    wrong = {"name": "  ", "game": "chess", "format": "ladder", "group_size": 7, "rounds": 0, "days": 0}
    given: dict[str, object] = {**where, **wrong, "clock": "3 days", "options": {"mode": "x"}}
    given.update(points=[1, 0], review=True)
    for words, right in (
        ("needs a visible character", {"name": "x" * 61}),
        ("1 to 60 characters", {"name": "taken"}),
        ("not a game here", {"game": "guacamole"}),
        ("format is one of", {"format": "elimination"}),
        ("seat 2 to 6", {"group_size": 3}),
        ("two-player games", {"format": "swiss"}),
        ("needs its number of rounds", {"rounds": 31}),
        ("1 to 30 rounds, not 31", {"rounds": 3}),
        ("at most 60 days, not 0$", {"days": 7}),
        ('"3 days" is not a clock', {"clock": None}),
        ("mode", {"options": None}),
        ("none negative; not 1,0$", {"points": [1, 2, 0]}),
        ("may not rise", {"points": None, "format": "round_robin"}),
        ("can be reviewed", {"review": False}),
        ("already has a league called 'taken'; choose", {"name": "Fresh"}),
    ):
        with pytest.raises(LeagueError, match=words):
            await leagues.create(**given)
        given.update(right)
    assert (await leagues.create(**given)).name == "Fresh"


async def test_league_names_are_stored_normalised_and_look_alikes_refused(leagues, store):
    """Invisible and bidirectional characters are dropped before storing; a name that looks like an
    existing one is refused naming both; markdown is kept and shown escaped; finding a league by a
    look-alike of its name finds it."""
    base = dict(guild_id=GUILD, channel_id=50, organiser_id=1, game="guacamole", format="swiss", group_size=3)
    liga = await leagues.create(**base, name="\u200fＬiga\u200b  de\u2066 Lima", rounds=3)
    assert liga.name == "Liga de Lima"
    for look_alike in ("Liga de Lima\u200b", "\u200fLiga de Lima", "liga  de lima", "Liga\u00a0de Lima"):
        with pytest.raises(LeagueError, match="already has a league called 'Liga de Lima'"):
            await leagues.create(**base, name=look_alike, rounds=3)
    # the invisible character as its code, its backslash escaped: Discord shows 'Liga de Lima\u200b'
    with pytest.raises(LeagueError, match=r"which looks the same as 'Liga de Lima\\\\u200b'"):
        await leagues.create(**base, name="Liga de Lima\u200b", rounds=3)
    assert (await leagues.find(GUILD, "liga de\u200b lima")).id == liga.id
    marked = await leagues.create(**base, name="**Liga** ~~4~~ ||x|| # big <@1>", rounds=3)
    assert marked.name == "**Liga** ~~4~~ ||x|| # big <@1>"
    assert marked.shown == r"\*\*Liga\*\* \~\~4\~\~ \|\|x\|\| \# big \<\@1\>"
    refused = await refused_with(leagues.start(marked))
    assert str(refused).startswith(r"\*\*Liga\*\* \~\~4")
    assert [x.name for x in await store.leagues.of_server(GUILD)] == [
        "**Liga** ~~4~~ ||x|| # big <@1>",
        "Liga de Lima",
    ]


async def refused_with(call):
    with pytest.raises(LeagueError) as caught:
        await call
    return caught.value


async def test_a_league_over_or_cancelled_refuses_sign_ups_saying_so(leagues, service):
    """A league that ended, or that its server's removal of the bot cancelled, takes no sign-up nor
    its withdrawal, and says which it is (not "has started", as for a running one)."""
    store = service.store
    ended = await new_league(leagues, name="Done", game="nim", format="swiss", group_size=2, rounds=1)
    for uid in (1, 2):
        await leagues.join(ended, uid, f"p{uid}")
    await store.leagues.end_league(ended.id, 1)
    cancelled = await new_league(leagues, name="Gone", game="nim", format="swiss", group_size=2, rounds=1)
    await leagues.join(cancelled, 1, "p1")
    assert await store.leagues.cancel_server(cancelled.guild_id) == [cancelled.id]
    for league, why in ((ended, "is over"), (cancelled, "was cancelled")):
        league = await store.leagues.league(league.id)
        for attempt in (leagues.join(league, 3, "p3"), leagues.leave(league, 1)):
            with pytest.raises(LeagueError) as refused:
                await attempt
            words = str(refused.value)
            assert league.name in words and why in words and "/league create" in words, words
    assert [p.user_id for p in await store.leagues.league_players(cancelled.id)] == [1]


async def round_of_two(leagues, service, clock, channels):
    """A one-round, one-day Nim league of two; the round's game after the first player to move made
    one move on time: (the league, the session, who moved, who is to move)."""
    names = {811: "ana", 812: "ben"}
    league = await started_with(
        leagues, names, name="Short", game="nim", format="swiss", group_size=2, rounds=1, days=1
    )
    opened = await leagues.open_round(league.id, 1)
    (session,) = await open_games(leagues, opened, names, channels)
    punctual = session.waiting_on()[0]
    clock.advance(600)
    legal = session.engine.legal_moves(session.state, punctual.seat)
    session = (await service.play.play(session.row.channel_id, punctual.user_id, str(legal[0]))).session
    return league, session, punctual.user_id, session.waiting_on()[0].user_id


async def test_a_rounds_deadline_charges_one_missed_turn_to_the_late_player_and_none_to_the_other(
    leagues, service, clock
):
    """The computer finishes the game for both seats at the deadline; of its moves only the turn
    the game was waiting on is a missed one (its player's), the rest are the table's own."""
    from bot import profiles

    league, session, punctual, late = await round_of_two(leagues, service, clock, counter(7100))
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    session = await service.core.get(session.id)
    assert session.status == "finished"
    computer_moves = [m for m in await service.store.history.moves(session.id) if m.by_computer]
    assert len({m.seat for m in computer_moves}) == 2  # the computer played both seats
    on_time = (await profiles.profile(service.store, punctual)).figures
    assert (on_time.turns, on_time.on_time, on_time.missed) == (1, 1, 0)
    assert (on_time.finished, on_time.timed_out) == (1, 0)
    missed = (await profiles.profile(service.store, late)).figures
    assert (missed.turns, missed.on_time, missed.missed) == (1, 0, 1)
    assert (missed.finished, missed.timed_out) == (0, 1)


async def test_a_league_game_whose_thread_is_gone_charges_nobody_a_missed_turn(leagues, service, clock):
    """Nobody can move once the game's thread is deleted: the computer's moves that finish it are
    nobody's missed turns."""
    from bot import profiles

    _, session, punctual, late = await round_of_two(leagues, service, clock, counter(7200))
    await service.seats.finish_by_computer(session.id, waited=False)
    assert (await service.core.get(session.id)).status == "finished"
    for user, turns in ((punctual, 1), (late, 0)):
        figures = (await profiles.profile(service.store, user)).figures
        assert (figures.turns, figures.missed, figures.timed_out, figures.finished) == (turns, 0, 0, 1)
