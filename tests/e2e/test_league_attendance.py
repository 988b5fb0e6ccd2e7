"""Attendance in a Swiss league, end to end: the real bot against the Discord stand-in, time moved
by the test.

Six people sign up for three-player Guacamole over four rounds with a check-in window of a day
before every round, and a requested bye worth half a bye.  Dora never checks in (she wants direct
messages, and reads Spanish: she is told by one each round, in Spanish, and not paired); Eloy asks for a bye in round 1 (half a
point); Gil joins late, during round 1 (one bye, a full point), and is paired from round 2; Fatima
pauses for round 2; Cusi takes time away over round 2's start without checking in (a pause, not an
absence).  Late sign-ups close once two of the four rounds are played.
"""

from __future__ import annotations

import re

from tests.e2e.leagues import DAY, fire
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_notices import settings_in

EXTENSIONS = (*LEAGUE_EXTENSIONS, "cogs.me")


async def answer(standin, user, chan, command, **options) -> str:
    return (await (await standin.slash(user, chan, command, **options)).original()).content


async def paired(bot, number) -> set[int]:
    league = (await bot.store.leagues.of_server(bot_guild(bot)))[0]
    games = await bot.store.leagues.league_games(league.id, number)
    return {u for g in games for u in g.players}


def bot_guild(bot) -> int:
    return next(iter(bot.guilds)).id


async def test_check_in_late_join_bye_on_request_and_pauses(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    names = ("ana", "beto", "cusi", "dora", "eloy", "fatima", "gil")
    users = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        users["dora"].locale = "es-ES"  # her direct messages come in Spanish
        await settings_in(standin, users["dora"], chan, "Guardado.", where="dm")
        await answer(
            standin,
            owner,
            chan,
            "league create",
            name="Avocado",
            game="guacamole",
            format="swiss",
            players=3,
            rounds=4,
        )
        for name in names[:6]:
            await answer(standin, users[name], chan, "league join")
        refused = await answer(standin, users["ana"], chan, "league organiser attendance", checkin="every")
        assert "Manage Server" in refused
        told = await answer(
            standin,
            owner,
            chan,
            "league organiser attendance",
            checkin="every",
            hours=24.0,
            requested_bye="half",
        )
        assert "check in before every round, in a window of 24 hours" in told and "0.5 points" in told
        # Bad input: a window longer than a round is refused, saying what is allowed.
        long = await answer(standin, owner, chan, "league organiser attendance", hours=200.0)
        assert "from 10 minutes to a round (168 hours), not 200 hours" in long
        # Eloy asks for a bye in round 1 before the start; a round that does not exist is refused.
        assert "not a coming round" in await answer(standin, users["eloy"], chan, "league bye", round=9)
        bye = await answer(standin, users["eloy"], chan, "league bye", round=1)
        assert "bye in round 1 of Avocado" in bye and "scores 0.5 points" in bye
        assert "no check-in open" in await answer(standin, users["ana"], chan, "league checkin")

        started = await answer(standin, owner, chan, "league start")
        assert "Its check-in opens" in started
        # the first round opens when its check-in has been open its 24 hours, not at the start
        (round_at, checkin_at) = [int(s) for s in re.findall(r"<t:(\d+)", started)]
        assert round_at - checkin_at == 24 * 3600, started
        standin.skip_messages(chan)
        await fire(bot)
        call = await standin.next_message(chan, lambda m: "check in for round 1 of 4" in m.content)
        assert "pk:lg:in:" in " ".join(call.custom_ids)
        # Everyone but Eloy (who asked for a bye) is asked; Dora by DM, the others by mention.
        assert call.pinged == {users[n].id for n in ("ana", "beto", "cusi", "fatima")}
        (asked,) = standin.messages(standin.dm(users["dora"]))
        assert "Confirma tu asistencia a la ronda 1 de 4 de **Avocado** antes del" in asked.content
        assert await paired(bot, 1) == set()  # nothing is paired while the window is open

        for name in ("ana", "beto", "fatima"):
            click = await standin.click(users[name], call, "Check in")
            assert "You are checked in for round 1 of 4" in (await click.original()).content
        again = await standin.click(users["ana"], call, "Check in")
        assert "already checked in" in (await again.original()).content
        assert "checked in for round 1" in await answer(standin, users["cusi"], chan, "league checkin")
        eloy = await standin.click(users["eloy"], call, "Check in")
        assert "You asked for a bye in round 1" in (await eloy.original()).content
        outsider = standin.add_users("zed")[0]
        assert "not signed up" in (await (await standin.click(outsider, call, "Check in")).original()).content

        table_clock.advance(DAY)
        await fire(bot)
        opened = await standin.next_message(chan, lambda m: "round 1 of 4 is open" in m.content)
        assert "Bye (1 point)" in opened.content  # four checked in: a table of three and a bye
        assert await paired(bot, 1) <= {users[n].id for n in ("ana", "beto", "cusi", "fatima")}
        sat = await standin.next_message(chan, lambda m: "did not check in" in m.content)
        assert "Not paired in round 1 of 4 (did not check in): Dora" in sat.content
        assert "Bye asked for: Eloy (0.5 points)" in sat.content
        assert users["dora"].id not in sat.pinged  # she wants DMs: told there, not pinged
        absent = standin.messages(standin.dm(users["dora"]))[-1]
        assert "No confirmaste tu asistencia a la ronda 1 de 4 de **Avocado**" in absent.content
        assert "no check-in open" in await answer(standin, users["ana"], chan, "league checkin")
        # /league round lists the pairing's bye at its points, and who sat out for attendance apart.
        now = (await answer(standin, users["ana"], chan, "league round")).splitlines()
        bye_lines = [line for line in now if line.startswith("Bye (1 point each): ")]
        assert len(bye_lines) == 1, now
        (bye_line,) = bye_lines
        assert "Dora" not in bye_line and "Eloy" not in bye_line
        assert "Not paired in round 1 of 4 (did not check in): Dora" in now
        assert "Bye asked for: Eloy (0.5 points)" in now

        # Gil joins late, in round 1: one bye, a full point.
        late = await answer(standin, users["gil"], chan, "league join")
        assert "Gil joined Avocado late, with a bye in round 1 of 4 (1 point)" in late
        # Fatima pauses for round 2; Cusi will be away over its start.
        paused = await answer(standin, users["fatima"], chan, "league pause", rounds=1)
        assert "paused for round 2 of Avocado" in paused
        assert "taken back" in await answer(standin, users["fatima"], chan, "league resume")
        await answer(standin, users["fatima"], chan, "league pause", rounds=1)

        # Round 2's window opens a day before round 1's deadline.
        table_clock.advance(5 * DAY)
        await fire(bot)
        assert not [m for m in standin.messages(chan) if "check in for round 2" in m.content]
        away = await answer(standin, users["cusi"], chan, "me away", days=3)
        assert "You are away" in away
        table_clock.advance(DAY)
        await fire(bot)
        call = await standin.next_message(chan, lambda m: "check in for round 2 of 4" in m.content)
        assert users["fatima"].id not in call.pinged and users["gil"].id in call.pinged
        for name in ("ana", "beto", "eloy", "gil"):
            await standin.click(users[name], call, "Check in")
        fatima = await standin.click(users["fatima"], call, "Check in")
        assert "You paused round 2" in (await fatima.original()).content

        table_clock.advance(DAY)
        await fire(bot)
        await standin.next_message(chan, lambda m: "round 2 of 4 is open" in m.content)
        assert await paired(bot, 2) <= {users[n].id for n in ("ana", "beto", "eloy", "gil")}
        sat = await standin.next_message(chan, lambda m: "Not paired in round 2" in m.content)
        assert "(did not check in): Dora" in sat.content  # Cusi is away: not an absence
        assert "Paused or away: Cusi (0 points), Fatima (0 points)" in sat.content
        dms = [m for m in standin.messages(standin.dm(users["dora"])) if "No confirmaste" in m.content]
        assert len(dms) == 2

        # The standings count each bye at its points and say why each round was sat out.
        standings = await standin.slash(users["ana"], chan, "league standings")
        _, words = await standings.followups(2)
        assert "Not paired: " in words.content
        for entry in (
            "Dora (round 1, did not check in, 0 points)",
            "Eloy (round 1, bye asked for, 0.5 points)",
            "Gil (round 1, joined late, 1 point)",
            "Cusi (round 2, paused, 0 points)",
            "Fatima (round 2, paused, 0 points)",
            "Dora (round 2, did not check in, 0 points)",
        ):
            assert entry in words.content
        league = (await bot.store.leagues.of_server(bot_guild(bot)))[0]
        rows = {s.name: s.row for s in await bot.leagues.standings(league)}
        assert rows["Dora"].byes == 2 and rows["Dora"].points == 0.0
        byes = await bot.store.leagues.league_byes(league.id)
        assert (1, users["eloy"].id, 0.5) in byes and (1, users["gil"].id, 1.0) in byes
        kinds = await bot.store.attendance.bye_kinds(league.id)
        # Round 2's four players fill a table of three: one pairing bye, worth a full point; a bye
        # asked for does not spare Eloy from it.
        (given,) = [(u, p) for r, u, p in byes if r == 2 and kinds[(r, u)] == "pairing"]
        assert given[1] == 1.0 and rows[next(k for k in rows if users[k.lower()].id == given[0])].byes >= 1

        # Two rounds played of four: late sign-ups are closed.
        table_clock.advance(7 * DAY)
        await fire(bot)
        closed = await answer(standin, standin.add_users("hugo")[0], chan, "league join")
        assert "has played 2 of its 4 rounds; late sign-ups close at half the rounds" in closed


async def test_a_round_opening_dm_names_the_round_in_the_readers_language(standin, bot_factory, table_clock):
    """The server speaks English; Ana reads Spanish and wants direct messages: the round's name in
    her message is Spanish too (it was the server's English inside her Spanish sentence)."""
    chan = standin.channel("games")
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        ana.locale = "es-ES"
        await settings_in(standin, ana, chan, "Guardado.", where="dm")
        await answer(
            standin,
            standin.owner,
            chan,
            "league create",
            name="Llama",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=2,
        )
        for user in (ana, beto):
            await answer(standin, user, chan, "league join")
        await answer(standin, standin.owner, chan, "league start")
        await fire(bot)
        await standin.next_message(chan, lambda m: "round 1 of 2 is open" in m.content)
        await bot.front.catchup.drain()
        (dm,) = [m for m in standin.messages(standin.dm(ana)) if "**Llama**" in m.content]
        assert "Tu partida de P'achakuna de **Llama**, ronda 1 de 2, está abierta" in dm.content
