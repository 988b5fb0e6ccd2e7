"""A whole Swiss season with real people's habits, end to end: the real bot against the Discord
stand-in, time moved by the test.

Nine people play three-player Guacamole over four rounds, with a check-in before every round, a
requested bye worth half a bye, and a substitute on the organiser's list:

- Dora never checks in (she wants direct messages): she is told each round and never paired;
- Eloy asks for a bye in round 1 (half a point);
- Gil joins late, during round 1 (one bye, a full point), and is paired from round 2;
- Hugo never plays when it is his turn: round 1's deadline gives him a no-show (the computer plays
  on), and in the next round that seats him (round 2, unless the pairing gives him a bye there)
  the organiser decides his stalled game at once from ``/league overdue``: a second no-show drops
  him, and Sol, the substitute, takes his seat and plays on.

Every other game is played to its end by its people (the moves the computer would choose).  The
test checks each round's tables (only those present, nobody twice), the byes and their points
(the pairing's byes go to those present and not seated, nobody twice), the seats (nobody in the
same seat in every game), the tiebreak values against a count of its own, and what each person
was told.  The league and its games are seeded from the bot's seed source, which the test fixes,
so every run plays the same season; the test reads Hugo's round from the published tables.
"""

from __future__ import annotations

import random
from collections import Counter

from tests.e2e.leagues import DAY, fire, posts_with
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_notices import settings_in

EXTENSIONS = (*LEAGUE_EXTENSIONS, "cogs.me", "cogs.guacamole")
HOUR = 3600


async def answer(standin, user, chan, command, **options) -> str:
    return (await (await standin.slash(user, chan, command, **options)).original()).content


async def step(bot, session, rng: random.Random) -> None:
    """The first waiting person plays the move the easy computer would choose (no search, so the
    same seed gives the same game)."""
    seat = session.waiting_on()[0]
    module = session.engine
    legal = list(module.legal_moves(session.state, seat.seat))
    move = module.computer_move(module.view_for(session.state, seat.seat), legal, rng, "easy")
    await bot.sessions.play.play(session.row.channel_id, seat.user_id, str(move))


async def finish(bot, session_id: int, rng: random.Random, *, limit: int = 2000) -> None:
    """The game's people play it to its end."""
    for _ in range(limit):
        session = await bot.sessions.core.get(session_id)
        if session.status != "active":
            return
        await step(bot, session, rng)
    raise AssertionError("the game did not end")


async def play_until(bot, session_id: int, user_id: int, rng: random.Random, *, limit: int = 400) -> None:
    """The game's people play (at least one move) until it is ``user_id``'s turn."""
    for played in range(limit):
        session = await bot.sessions.core.get(session_id)
        assert session.status == "active"
        if played and any(s.user_id == user_id for s in session.waiting_on()):
            return
        await step(bot, session, rng)
    raise AssertionError("the turn never came round")


async def check_in(standin, chan, round_name: str, people) -> None:
    call = await standin.next_message(chan, lambda m: f"check in for {round_name}" in m.content)
    for user in people:
        click = await standin.click(user, call, "Check in")
        assert f"You are checked in for {round_name}" in (await click.original()).content


async def test_a_season_with_absences_a_late_join_a_bye_a_drop_and_a_substitute(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    owner = standin.owner
    names = ("ana", "beto", "cusi", "dora", "eloy", "fatima", "gil", "hugo", "ines", "sol")
    u = dict(zip(names, standin.add_users(*names), strict=True))
    ids = {user.id: name for name, user in u.items()}
    rng = random.Random(2026)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        seeds = random.Random(7)  # the league's seed and every game's deal: every run, one season
        bot.sessions.new_seed = lambda: seeds.randrange(2**31)
        await settings_in(standin, u["dora"], chan, "Saved.", where="dm")
        await answer(
            standin,
            owner,
            chan,
            "league create",
            name="Season",
            game="guacamole",
            format="swiss",
            players=3,
            rounds=4,
        )
        for name in ("ana", "beto", "cusi", "dora", "eloy", "fatima", "hugo", "ines"):
            await answer(standin, u[name], chan, "league join")
        told = await answer(
            standin,
            owner,
            chan,
            "league organiser attendance",
            checkin="every",
            hours=24.0,
            requested_bye="half",
        )
        assert "0.5 points" in told
        added = await answer(
            standin, owner, chan, "league organiser substitute", action="add", member=u["sol"]
        )
        assert "Substitutes (1): Sol." in added
        assert "scores 0.5 points" in await answer(standin, u["eloy"], chan, "league bye", round=1)
        await answer(standin, owner, chan, "league start")
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        standin.skip_messages(chan)

        # ---- round 1: six check in (not Dora; Eloy has his bye); Gil joins late.
        await fire(bot)
        present = [u[n] for n in ("ana", "beto", "cusi", "fatima", "hugo", "ines")]
        await check_in(standin, chan, "round 1 of 4", present)
        table_clock.advance(DAY)
        await fire(bot)
        opened = table_clock.time()
        games = await bot.store.leagues.league_games(league.id, 1)
        assert {ids[p] for g in games for p in g.players} == {"ana", "beto", "cusi", "fatima", "hugo", "ines"}
        assert len(games) == 2 and all(len(g.players) == 3 for g in games)
        late = await answer(standin, u["gil"], chan, "league join")
        assert "Gil joined Season late, with a bye in round 1 of 4 (1 point)" in late
        (hugo_game,) = [g for g in games if u["hugo"].id in g.players]
        (other,) = [g for g in games if g is not hugo_game]
        await finish(bot, other.session_id, rng)
        await play_until(bot, hugo_game.session_id, u["hugo"].id, rng)
        hugo_thread = standin.channel((await bot.sessions.core.get(hugo_game.session_id)).row.channel_id)

        # Round 2's check-in opens a day before round 1's deadline; Hugo checks in, then stalls.
        table_clock.set(opened + 6 * DAY)
        await fire(bot)
        (reminder,) = posts_with(standin, hugo_thread, "your turn is waiting")
        assert reminder.pinged == {u["hugo"].id}
        present = [u[n] for n in ("ana", "beto", "cusi", "eloy", "fatima", "gil", "hugo", "ines")]
        await check_in(standin, chan, "round 2 of 4", present)
        table_clock.set(opened + 6 * DAY + 18 * HOUR)
        await fire(bot)
        (warning,) = posts_with(standin, hugo_thread, "counts as a no-show")
        assert warning.pinged == {u["hugo"].id}
        table_clock.set(opened + 7 * DAY)  # round 1's deadline: Hugo's no-show; round 2 opens
        await fire(bot)
        opened = table_clock.time()
        assert posts_with(standin, hugo_thread, "did not play in time: a no-show")
        assert (await bot.sessions.core.get(hugo_game.session_id)).status == "finished"
        assert await bot.store.noshows.counts(league.id) == {u["hugo"].id: 1}

        # ---- rounds 2 to 4: those who checked in (never Dora) at two tables of three, the rest
        # with the pairing's bye; in the first of them that seats Hugo, he stalls again and the
        # organiser's Decide drops him; Sol takes his seat and plays on.
        pairing_byes: list[tuple[int, str]] = []
        dropped_in = None
        for number in (2, 3, 4):
            games = await bot.store.leagues.league_games(league.id, number)
            seated = [ids[p] for g in games for p in g.players]
            here = {ids[user.id] for user in present}
            assert len(games) == 2 and all(len(g.players) == 3 for g in games)
            assert len(seated) == len(set(seated)) == 6 and set(seated) <= here
            assert not {"dora", "sol"} & set(seated)
            sat_out = here - set(seated)
            assert len(sat_out) == len(here) - 6 == (2 if dropped_in is None else 1)
            byes = await bot.store.leagues.league_byes(league.id)
            for name in sat_out:
                assert (number, u[name].id, league.bye_points) in byes, (number, name, byes)
            pairing_byes += [(number, name) for name in sorted(sat_out)]
            # The round's post names those with the pairing's bye; each table's thread pings its
            # players.
            (post,) = posts_with(standin, chan, f"round {number} of 4 is open")
            (listed,) = [line for line in post.content.splitlines() if line.startswith("Bye (1 point): ")]
            assert set(listed.removeprefix("Bye (1 point): ").lower().split(", ")) == sat_out
            for game in games:
                thread = standin.channel((await bot.sessions.core.get(game.session_id)).row.channel_id)
                (opening,) = posts_with(standin, thread, f"game for **Season**, round {number} of 4")
                assert opening.pinged == set(game.players)
            hugo_games = [g for g in games if u["hugo"].id in g.players]
            if dropped_in is None and hugo_games:
                (hugo_game,) = hugo_games
                for game in games:
                    if game is not hugo_game:
                        await finish(bot, game.session_id, rng)
                await play_until(bot, hugo_game.session_id, u["hugo"].id, rng)
                table_clock.advance(25 * HOUR)  # past a quarter of a round's day limit for one turn: late
                view = await (await standin.slash(owner, chan, "league overdue")).original()
                assert "late, waiting for Hugo" in view.content
                decided = await standin.click(owner, view, "Decide table " + str(hugo_game.table_no))
                said = (await decided.original()).content
                assert "1 no-show counted" in said and "Dropped: Hugo" in said
                (dropped,) = posts_with(standin, chan, "is dropped from **Season** after 2 no-shows")
                assert dropped.pinged == {u["hugo"].id}
                hugo_thread = standin.channel(
                    (await bot.sessions.core.get(hugo_game.session_id)).row.channel_id
                )
                (handed,) = posts_with(standin, hugo_thread, "takes Hugo's seat")
                assert u["sol"].id in handed.pinged
                session = await bot.sessions.core.get(hugo_game.session_id)
                assert session.seat_of(u["sol"].id) is not None and session.seat_of(u["hugo"].id) is None
                await finish(bot, hugo_game.session_id, rng)  # Sol plays on, with the others
                dropped_in = number
            else:
                assert "hugo" not in seated  # seated only before he is dropped
                for game in games:
                    await finish(bot, game.session_id, rng)
            if dropped_in is not None:
                present = [user for user in present if user is not u["hugo"]]
            table_clock.set(opened + 6 * DAY)  # the next check-in opens a day before the round
            await fire(bot)
            if number < 4:
                await check_in(standin, chan, f"round {number + 1} of 4", present)
            table_clock.set(opened + 7 * DAY)
            await fire(bot)
            opened = table_clock.time()
        assert dropped_in in (2, 3)  # a bye in round 2 leaves him the fewest byes to sit out in 3

        # ---- the season as the standings tell it.
        rows = {ids[int(s.row.player)]: s for s in await bot.leagues.standings(league)}
        byes = await bot.store.leagues.league_byes(league.id)
        assert (1, u["eloy"].id, 0.5) in byes and (1, u["gil"].id, 1.0) in byes
        assert {(r, ids[uid]) for r, uid, _ in byes} == {(1, "eloy"), (1, "gil")} | set(pairing_byes) | {
            (r, "dora") for r in (1, 2, 3, 4)
        }
        assert all(n == 1 for n in Counter(name for _, name in pairing_byes).values()), pairing_byes
        every = await bot.store.leagues.league_games(league.id)
        assert rows["dora"].row.points == 0.0 and not any(u["dora"].id in g.players for g in every)
        assert rows["hugo"].dropped and rows["hugo"].no_shows == 2
        # Dora was told every round by direct message that she was not paired.
        absent = [m for m in standin.messages(standin.dm(u["dora"])) if "did not check in" in m.content]
        assert len(absent) == 4

        # Seats: nobody who played three games or more sat in the same seat in all of them.
        seats: dict[int, Counter] = {}
        for g in every:
            for s in g.seats:
                seats.setdefault(s.user_id, Counter())[s.position] += 1
        for user_id, count in seats.items():
            if sum(count.values()) >= 3:
                assert max(count.values()) < sum(count.values()), (ids[user_id], count)

        # Buchholz, counted here: the league points of every opponent, once per game together, and
        # for each round sat out two dummy opponents (games of three) scoring one's own points.
        points = {name: s.row.points for name, s in rows.items()}
        sat_out = Counter(uid for _, uid, _ in await bot.store.leagues.league_byes(league.id))
        for name, s in rows.items():
            mine = u[name].id
            bh = (
                sum(
                    points[ids[o]]
                    for g in every
                    if mine in g.players
                    for o in g.players
                    if o != mine and ids[o] in points
                )
                + sat_out[mine] * 2 * points[name]
            )
            assert s.row.tiebreaks["buchholz"] == bh, (name, s.row.tiebreaks, bh)


async def test_two_leagues_with_the_same_seed_and_sign_ups_pair_the_same_first_round(
    standin, bot_factory, table_clock
):
    """A league's seed comes from the bot's seed source (as a game's does), not from the time the
    create command came: the same seed and the same sign-ups give the same tables and seats, so a
    season can be replayed."""
    chan = standin.channel("games")
    people = standin.add_users("ana", "beto", "cusi", "dora", "eloy", "fatima")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for name in ("One", "Two"):
            bot.sessions.new_seed = lambda: 2**40 + 987_654_321
            await answer(
                standin,
                standin.owner,
                chan,
                "league create",
                name=name,
                game="guacamole",
                format="swiss",
                players=3,
                rounds=1,
            )
            for user in people:
                assert "signed up for " + name in await answer(
                    standin, user, chan, "league join", league=name
                )
            await answer(standin, standin.owner, chan, "league start", league=name)
        await fire(bot)
        one, two = sorted(await bot.store.leagues.of_server(standin.guild.id), key=lambda x: x.name)
        assert one.seed == two.seed
        tables = [
            [g.players for g in await bot.store.leagues.league_games(league.id, 1)] for league in (one, two)
        ]
        assert len(tables[0]) == 2 and sorted(u for g in tables[0] for u in g) == sorted(p.id for p in people)
        assert tables[0] == tables[1]
