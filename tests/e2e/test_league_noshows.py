"""League no-shows end to end: the real bot against the Discord stand-in, time moved by the test.

Three players of three-player Guacamole over three one-day rounds, with a substitute on the
organiser's list.  In round 1 the player to move never plays: they are reminded, then warned with
the organiser, the overdue view lists their game as not started, and at the deadline they get a
no-show and the computer finishes the game.  In round 2 the others play until it is that player's
turn again; the overdue view shows the game late and waiting for them, its buttons refuse anyone
but the organiser, and the organiser's "decide" gives the second no-show: the player is dropped,
the substitute takes their seat and plays on, and the standings show the no-shows.
"""

from __future__ import annotations

import random

from bot import profiles
from bot.time.jobs import LEAGUE_NUDGE
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import (
    DAY,
    HOUR,
    fire,
    guacamole_with_substitute,
    late_in_a_round,
    one_round_league,
    posts_with,
)

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.guacamole", "cogs.league")


async def play_until(bot, session_id: int, user_id: int, rng: random.Random, *, limit: int = 400) -> None:
    """The players play (each move the one the computer would choose) until at least one move is
    made and it is ``user_id``'s turn."""
    played = 0
    for _ in range(limit):
        session = await bot.sessions.core.get(session_id)
        assert session.status == "active"
        waiting = session.waiting_on()
        if played and any(s.user_id == user_id for s in waiting):
            return
        seat = waiting[0]
        module = session.engine
        legal = list(module.legal_moves(session.state, seat.seat))
        move = module.computer_move(module.view_for(session.state, seat.seat), legal, rng)
        await bot.sessions.play.play(session.row.channel_id, seat.user_id, str(move))
        played += 1
    raise AssertionError("the turn never came round")


async def test_a_player_late_twice_is_dropped_and_a_substitute_plays_on(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "sub", "sub2")
    players, sub, sub2 = people[:3], people[3], people[4]
    by_id = {u.id: u for u in people}
    deputies = standin.add_role("league deputies")
    (deputy,) = standin.add_users("deputy", roles=[deputies])
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        refused = await standin.slash(
            owner,
            chan,
            "league create",
            name="Scored",
            game="guanga",
            format="swiss",
            players=3,
            rounds=3,
            no_show="score",
        )
        said = (await refused.original()).content
        assert "cannot be scored before its end" in said
        assert said.endswith('choose "The computer takes the seat" or "The seat forfeits the game".')
        assert await bot.store.leagues.of_server(standin.guild.id) == []
        created = await standin.slash(
            owner,
            chan,
            "league create",
            name="Avocado",
            game="guacamole",
            format="swiss",
            players=3,
            rounds=3,
            days=1,
        )
        assert "Avocado" in created.message.content
        for user in players:
            await (await standin.slash(user, chan, "league join")).original()
        # The substitutes' list is the organiser's.
        nope = await standin.slash(players[0], chan, "league organiser substitute", action="add", member=sub)
        assert "Manage Server" in (await nope.original()).content
        playing = await standin.slash(
            owner, chan, "league organiser substitute", action="add", member=players[0]
        )
        assert "plays in Avocado" in (await playing.original()).content
        added = await standin.slash(owner, chan, "league organiser substitute", action="add", member=sub)
        assert f"Substitutes (1): {sub.name.title()}." in (await added.original()).content
        again = await standin.slash(owner, chan, "league organiser substitute", action="add", member=sub)
        assert "already" in (await again.original()).content
        await (
            await standin.slash(owner, chan, "league organiser substitute", action="add", member=sub2)
        ).original()
        gone = await standin.slash(owner, chan, "league organiser substitute", action="remove", member=sub2)
        assert f"Substitutes (1): {sub.name.title()}." in (await gone.original()).content
        await (await standin.slash(owner, chan, "league start")).original()
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]

        # ---- round 1: the player to move never plays.
        await fire(bot)
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        session = await bot.sessions.core.get(game.session_id)
        thread = standin.channel(session.row.channel_id)
        (late,) = [by_id[s.user_id] for s in session.waiting_on()]
        others = [u for u in players if u is not late]
        table_clock.advance(12 * HOUR)  # the reminder: half the round before the deadline
        await fire(bot)
        (reminder,) = posts_with(standin, thread, "your turn is waiting")
        assert reminder.pinged == {late.id}
        table_clock.advance(9 * HOUR)  # the warning: three hours (an eighth of the round) before it
        await fire(bot)
        (warning,) = posts_with(standin, thread, "counts as a no-show")
        assert warning.pinged == {late.id} and "the computer takes the seat" in warning.content
        (told,) = posts_with(standin, chan, "1 game of **Avocado** is late")
        assert told.pinged == {owner.id} and f"<#{thread.id}>" in told.content
        view = await standin.slash(owner, chan, "league overdue")
        shown = await view.original()
        assert "Table 1: not started, " + late.name.title() + ", for 21 hours" in shown.content
        table_clock.advance(3 * HOUR)  # the deadline
        await fire(bot)
        assert posts_with(standin, thread, "did not play in time: a no-show")
        assert (await bot.sessions.core.get(session.id)).status == "finished"
        assert await bot.store.noshows.counts(league.id) == {late.id: 1}

        # ---- round 2: the others play until the late player's turn, who plays no more.
        (game,) = await bot.store.leagues.league_games(league.id, 2)
        session = await bot.sessions.core.get(game.session_id)
        thread = standin.channel(session.row.channel_id)
        await play_until(bot, session.id, late.id, random.Random(4))
        table_clock.advance(7 * HOUR)  # past a quarter of the round (6 hours): the game is late
        view = await standin.slash(others[0], chan, "league overdue")
        shown = await view.original()
        assert f"Table 1: late, waiting for {late.name.title()} for 7 hours" in shown.content
        assert not shown.components  # the buttons are the organiser's
        # A deputy with the organiser role gets the buttons, loses the role, and is refused.
        await bot.store.people.set_organiser_role(standin.guild.id, deputies.id)
        view = await standin.slash(deputy, chan, "league overdue")
        theirs = await view.original()
        assert "Decide table 1" in str(theirs.components)
        standin.guild.members[deputy.id].roles.clear()
        refused = await standin.click(deputy, theirs, "Decide table 1")
        assert (
            "Only someone with Manage Server, or the league organiser role, can do that."
            in (await refused.original()).content
        )
        assert await bot.store.noshows.counts(league.id) == {late.id: 1}
        view = await standin.slash(owner, chan, "league overdue")
        shown = await view.original()
        assert f"Table 1: late, waiting for {late.name.title()} for 7 hours" in shown.content
        reminded = await standin.click(owner, shown, "Remind table 1")
        assert "Reminded " + late.name.title() in (await reminded.original()).content
        assert posts_with(standin, thread, "your turn is waiting")[-1].pinged == {late.id}
        decided = await standin.click(owner, shown, "Decide table 1")
        answer = (await decided.original()).content
        assert "1 no-show counted" in answer and f"Dropped: {late.name.title()}" in answer
        assert await bot.store.noshows.counts(league.id) == {late.id: 2}
        (dropped,) = posts_with(standin, chan, "is dropped from **Avocado** after 2 no-shows")
        assert dropped.pinged == {late.id}
        (handed,) = posts_with(standin, thread, "takes " + late.name.title() + "'s seat")
        assert sub.id in handed.pinged and "counts for the seat's original player" in handed.content
        session = await bot.sessions.core.get(session.id)
        seat = session.seat_of(sub.id)
        assert seat is not None and not seat.computer and session.seat_of(late.id) is None
        assert await bot.store.noshows.substitutes(league.id) == []
        # The substitute plays on from the position, through Discord.
        while session.status == "active" and not any(s.user_id == sub.id for s in session.waiting_on()):
            await play_until(bot, session.id, sub.id, random.Random(5))
            session = await bot.sessions.core.get(session.id)
        module = session.engine
        legal = list(module.legal_moves(session.state, seat.seat))
        typed = await standin.slash(sub, thread, "guacamole move", move=str(legal[0]))
        assert "You played" in (await typed.original()).text
        # The standings show the no-shows (text below the picture).
        standings = await standin.slash(owner, chan, "league standings")
        _, words = await standings.followups(2)
        line = next(x for x in words.content.splitlines() if late.name.title() in x)
        assert "(dropped)" in line and line.endswith("2 no-shows")
        exported = await standin.slash(owner, chan, "league export")
        csv_text = (await exported.original()).files[0].data.decode()
        header, *rows = csv_text.split("\n\n")[0].splitlines()
        assert header.endswith(",no_shows,dropped,dropped_round,games_not_played")
        assert ",2,yes," in next(r for r in rows if str(late.id) in r)  # two no-shows, dropped


async def test_a_game_scored_as_it_stands_at_the_deadline(standin, bot_factory, table_clock):
    """Guacamole allows scoring as it stands: at the deadline the game ends ranked by the dishes
    made, the player to move has a no-show, and the reminder was a stored job all along."""
    chan = standin.channel("games")
    users = standin.add_users("ana", "beto", "cusi")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        league, session = await one_round_league(
            standin, bot, chan, users, game="guacamole", players=3, no_show="score"
        )
        (opened,) = posts_with(standin, chan, "is open until")
        assert "Games still running then are scored as they stand" in opened.content
        nudge = await bot.store.jobs.job(LEAGUE_NUDGE, f"{league.id}:1")
        assert nudge is not None and nudge.due_at == table_clock.time() + 12 * HOUR
        first = session.waiting_on()[0].user_id
        others = [u.id for u in users if u.id != first]
        await play_until(bot, session.id, others[0], random.Random(2), limit=400)
        session = await bot.sessions.core.get(session.id)
        scores = session.engine.scores_now(session.state)
        (late,) = [s.user_id for s in session.waiting_on()]
        table_clock.advance(DAY)
        await fire(bot)
        session = await bot.sessions.core.get(session.id)
        assert session.status == "finished" and "scored as it stood" in session.row.end_reason
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        by_seat = {session.seat_of(s.user_id).seat: s.place for s in game.seats}
        for a in by_seat:
            for b in by_seat:
                if scores[a] > scores[b]:
                    assert by_seat[a] < by_seat[b]
                if scores[a] == scores[b]:
                    assert by_seat[a] == by_seat[b]
        assert await bot.store.noshows.counts(league.id) == {late: 1}
        assert await bot.store.jobs.job(LEAGUE_NUDGE, f"{league.id}:1") is None


async def test_the_late_seat_forfeits_at_the_deadline(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    users = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        league, session = await one_round_league(
            standin, bot, chan, users, game="pachakuna", players=2, no_show="forfeit"
        )
        (opened,) = posts_with(standin, chan, "is open until")
        assert "Whoever's turn it is then forfeits the game (a no-show)" in opened.content
        (late,) = [s.user_id for s in session.waiting_on()]
        table_clock.advance(DAY)
        await fire(bot)
        thread = standin.channel(session.row.channel_id)
        assert posts_with(standin, thread, "a no-show, and the seat forfeits the game")
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        assert game.status == "finished"
        by = {s.user_id: s for s in game.seats}
        other = next(u for u in by if u != late)
        assert by[late].forfeit and by[late].place == 2 and by[other].place == 1
        assert await bot.store.noshows.counts(league.id) == {late: 1}
        standings = await standin.slash(users[0], chan, "league standings")
        _, words = await standings.followups(2)
        assert sum("1 no-show" in line for line in words.content.splitlines()) == 1


async def test_a_spanish_reader_is_warned_by_direct_message_wholly_in_spanish(
    standin, bot_factory, table_clock
):
    """The server speaks English; the late player reads Spanish and wants direct messages: the
    warning before the deadline comes to them in Spanish, the deadline's choice included."""
    from tests.e2e.test_notices import settings_in

    chan = standin.channel("games")
    users = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.me"))) as bot:
        await standin.wait_synced()
        for user in users:
            user.locale = "es-ES"
            await settings_in(standin, user, chan, "Guardado.", where="dm")
        league, session = await one_round_league(
            standin, bot, chan, users, game="pachakuna", players=2, no_show="forfeit"
        )
        (late,) = [u for u in users if u.id == session.waiting_on()[0].user_id]
        table_clock.advance(DAY - 2 * HOUR)  # past the warning, an eighth of the round before the deadline
        await fire(bot)
        warning = next(
            m for m in standin.messages(standin.dm(late)) if "cuenta como incomparecencia" in m.content
        )
        assert "Al vencer el plazo, el asiento pierde la partida por abandono, y cuenta" in warning.content
        assert "forfeits" not in warning.content


async def test_an_organiser_who_reads_spanish_gets_the_late_games_by_direct_message_in_spanish(
    standin, bot_factory, table_clock
):
    """The server speaks English; the organiser reads Spanish and wants direct messages: the
    channel's post is in English, their own letter in Spanish, as a player's notices are."""
    from tests.e2e.test_notices import settings_in

    chan = standin.channel("games")
    owner = standin.owner
    users = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.me"))) as bot:
        await standin.wait_synced()
        owner.locale = "es-ES"
        await settings_in(standin, owner, chan, "Guardado.", where="dm")
        await one_round_league(standin, bot, chan, users, game="pachakuna", players=2, no_show="forfeit")
        table_clock.advance(DAY - 2 * HOUR)  # past the warning
        await fire(bot)
        (posted,) = posts_with(standin, chan, "1 game of **Quick** is late")
        assert "the seat forfeits the game" in posted.content
        letter = standin.messages(standin.dm(owner))[-1]
        assert letter.content.startswith(f"<@{owner.id}>: 1 partida de **Quick** va con retraso"), (
            letter.content
        )
        assert "el asiento pierde la partida por abandono" in letter.content
        assert "La mesa 1 espera a " in letter.content


async def test_a_substitutes_profile_counts_only_the_turns_they_played(standin, bot_factory, table_clock):
    """The player in the last seat plays some turns, then is dropped while the game waits for
    them; the substitute takes their seat 5 hours into that turn and moves an hour later.  The
    seat's turns before the handover stay the dropped player's in their reliability profile; the
    substitute's profile has only their own turn, its time to move counted from when the seat
    became theirs (an hour, not six).  /league round names the substitute and whom they play for."""
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "sub")
    players, sub = people[:3], people[3]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        league, session = await guacamole_with_substitute(standin, bot, chan, players, sub)
        dropped = next(u for u in players if u.id == session.by_seat(2).user_id)  # moves last
        rng = random.Random(7)
        turns, last = 0, None
        while turns < 2 or dropped.id not in {s.user_id for s in session.waiting_on()}:
            seat = session.waiting_on()[0]
            legal = list(session.engine.legal_moves(session.state, seat.seat))
            move = session.engine.computer_move(session.engine.view_for(session.state, seat.seat), legal, rng)
            table_clock.advance(600)
            await bot.sessions.play.play(session.row.channel_id, seat.user_id, str(move))
            turns += seat.user_id == dropped.id and last != dropped.id
            last = seat.user_id
            session = await bot.sessions.core.get(session.id)
            assert session.status == "active"
        table_clock.advance(5 * HOUR)
        told = (
            await (await standin.slash(owner, chan, "league organiser drop", member=dropped)).original()
        ).content
        assert told.endswith(
            "they forfeit their remaining games except those a substitute plays for them. A substitute"
            " took 1 seat (its result counts for the seat's original player)."
        ), told
        session = await bot.sessions.core.get(session.id)
        seat = session.seat_of(sub.id)
        assert seat is not None and session.seat_of(dropped.id) is None
        assert [s.user_id for s in session.waiting_on()] == [sub.id]
        # /league round names who plays the seat now, and for whom (not the dropped player alone)
        shown = (await (await standin.slash(owner, chan, "league round")).original()).content
        table = next(line for line in shown.splitlines() if line.startswith("Table 1:"))
        assert f"Sub (for {dropped.name.title()})" in table and "being played" in table, table
        table_clock.advance(HOUR)
        legal = list(session.engine.legal_moves(session.state, seat.seat))
        await bot.sessions.play.play(session.row.channel_id, sub.id, str(legal[0]))

        theirs = await profiles.figures_of(bot.store, sub.id)
        assert (theirs.turns, theirs.on_time, theirs.missed) == (1, 1, 0)
        assert theirs.median == HOUR
        hers = await profiles.figures_of(bot.store, dropped.id)
        assert (hers.turns, hers.missed) == (turns, 0)
        assert sorted(await bot.store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
            await profiles.rebuild(bot.store)
        )


async def test_a_no_show_in_the_last_round_drops_too_and_is_never_champion(standin, bot_factory, table_clock):
    """``drop_after:1`` in a one-round league: nobody moves, and at the deadline the player to move
    reaches the limit.  The last round's no-shows drop as any round's do (it was skipped as the
    season ended), so that player is dropped and not crowned."""
    chan = standin.channel("games")
    users = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.pachakuna", "cogs.league"))) as bot:
        league, session, late = await late_in_a_round(standin, bot, chan, users)
        table_clock.advance(DAY)
        await fire(bot)
        assert await bot.store.noshows.counts(league.id) == {late: 1}
        league = await bot.store.leagues.league(league.id)
        players = {p.user_id: p for p in await bot.store.leagues.league_players(league.id)}
        assert league.status == "finished" and players[late].dropped
        assert league.champion_id is not None and league.champion_id != late


async def test_a_second_press_of_decide_charges_nobody_else(standin, bot_factory):
    """The organiser presses Decide twice on one /league overdue list: the first press counts the
    listed player's no-show and the computer plays on for them; the second finds the table no
    longer held up (the other player got the turn a moment ago) and says so, counting nothing."""
    ana, beto = standin.add_users("ana", "beto")
    chan = standin.channel("games")
    owner = standin.owner
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.pachakuna", "cogs.league"))) as bot:
        await standin.wait_synced()
        league, _, late = await late_in_a_round(standin, bot, chan, [ana, beto])
        listed = await (await standin.slash(owner, chan, "league overdue")).original()
        assert "Table 1: not started" in listed.content, listed.content
        first = await (await standin.click(owner, listed, "Decide table 1")).original()
        assert "1 no-show counted" in first.content, first.content
        second = await (await standin.click(owner, listed, "Decide table 1")).original()
        assert "Table 1 is not held up now" in second.content and second.ephemeral, second.content
        assert await bot.store.noshows.counts(league.id) == {late: 1}
        assert [p.user_id for p in await bot.store.leagues.league_players(league.id) if not p.active] == [
            late
        ]
