"""Leagues end to end: the real bot against the Discord stand-in, time moved by the test.

A Swiss league of seven in three-player Guacamole over three rounds (sign-ups by button and by
command, a bye each round, a thread per game, one game played by its people, the others finished
by the computer at the deadline, standings pictures, the champion); a single-elimination
P'achakuna cup of five with a player dropped mid-season.
"""

from __future__ import annotations

from tests.e2e.conftest import png_of
from tests.e2e.leagues import DAY, EXTENSIONS, fire, threads_of
from tests.e2e.players import Driver, is_board


async def test_a_swiss_league_of_seven_in_three_player_guacamole(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "dora", "eloy", "fatima", "gil")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        # Only an organiser creates a league.
        refused = await standin.slash(
            people[0], chan, "league create", name="Mine", game="guacamole", format="swiss", players=3
        )
        assert "Manage Server" in (await refused.original()).content
        created = await standin.slash(
            owner,
            chan,
            "league create",
            name="Guacamole autumn",
            game="guacamole",
            format="swiss",
            players=3,
            rounds=3,
            days=7,
            drop_after=0,  # nobody is dropped for the games the computer finishes
        )
        signup = created.message
        assert (
            not signup.ephemeral and "Guacamole autumn" in signup.content and "nobody yet" in signup.content
        )
        for user in people[:4]:
            r = await standin.click(user, signup, "Join")
            assert r.type == 7
        for user in people[4:]:
            r = await standin.slash(user, chan, "league join")
            assert "signed up" in (await r.original()).content
        again = await standin.slash(people[0], chan, "league join")
        assert "already signed up" in (await again.original()).content
        signup = standin.message(signup.id)
        assert "Signed up (7)" in signup.content
        nope = await standin.slash(people[0], chan, "league start")
        assert "Manage Server" in (await nope.original()).content
        started = await standin.slash(owner, chan, "league start")
        assert "has started: 3 rounds" in (await started.original()).content
        assert not standin.message(signup.id).components  # the buttons go when sign-ups close

        champion_line = None
        played_by_people = 0
        before = {t.id for t in standin.guild.threads}
        standin.skip_messages(chan)
        assert await fire(bot) == 1  # the first round opens at once (no start date was given)
        for number in (1, 2, 3):
            announce = await standin.next_message(
                chan, lambda m, n=number: f"round {n} of 3 is open" in m.content
            )
            assert "Bye (1 point)" in announce.content
            threads = threads_of(standin, before)
            assert len(threads) == 2
            # a week without a message before Discord archives them (not its default day)
            assert {t.auto_archive_duration for t in threads} == {10080}
            seated = set()
            for thread in threads:
                posts = standin.messages(thread)
                ping, board = posts[0], next(m for m in posts if is_board(m))
                assert "round" in ping.content and len(ping.pinged) == 3
                seated |= ping.pinged
                assert png_of(board).width > 100
            assert len(seated) == 6 and owner.id not in seated
            if number == 1:
                # The people at the first table play their game through; the other is left running.
                thread = threads[0]
                session = await bot.sessions.core.in_channel(thread.id)
                users = {u.id: u for u in people}
                driver = Driver(standin, bot, thread, {users[s.user_id]: "menu" for s in session.seats})
                await driver.play()
                played_by_people += 1
            before = {t.id for t in standin.guild.threads}
            table_clock.advance(7 * DAY - 1)
            assert await fire(bot) == 0  # not before the deadline
            table_clock.advance(1)
            assert await fire(bot) == (2 if number < 3 else 1)  # the deadline, then the next round
            for thread in threads:
                session = await bot.sessions.core.latest(thread.id)
                assert session.status == "finished"
            late = [
                t
                for t in threads
                if any("the computer finished the game" in m.content for m in standin.messages(t))
            ]
            assert len(late) == (1 if number == 1 else 2)
        assert played_by_people == 1
        posted = standin.messages(chan)
        end = next(m for m in posted if "is over. Champion" in m.content)
        champion_line = end.content.splitlines()[0]
        image = png_of(end)
        assert image.width == 1000 and image.height > 400
        below = posted[posted.index(end) + 1]  # the standings in words, below the picture
        assert not below.files and "final standings after 3 rounds" in below.content
        # A line per player, the tiebreaks explained, and what a bye is (three players had one).
        assert below.content.count("\n") == 9
        assert below.content.count(", 1 bye, ") == 3 and below.content.splitlines()[-1].startswith("Bye: ")
        standings = await standin.slash(people[2], chan, "league standings")
        picture, message = await standings.followups(2)
        assert picture is standin.message((await standings.original()).id)
        assert not picture.ephemeral and "final standings after 3 rounds" in picture.content
        # Every picture carries alt text: the standings' own words, plain, within Discord's 1,024.
        assert "final standings after 3 rounds" in picture.files[0].description
        assert "**" not in picture.files[0].description
        for m in standin.all_messages():
            for f in m.files:
                assert f.description and len(f.description) <= 1024, (f.filename, m.content[:60])
        # The text version for screen readers is a message of its own, right below the picture.
        posted = standin.messages(chan)
        assert posted.index(message) == posted.index(picture) + 1 and not message.files
        assert not message.ephemeral and "final standings after 3 rounds" in message.content
        assert message.content.count("points") + message.content.count("point,") >= 7
        first = message.content.splitlines()[1]
        assert first.startswith("1. ")
        winner = first[3:].split(":")[0]
        assert any(u.id in end.pinged and u.name.lower() == winner.lower() for u in people), (
            winner,
            champion_line,
        )
        assert png_of(picture).size == image.size
        # Over, the league has no late games, and says so (not that no round has opened).
        overdue = await (await standin.slash(owner, chan, "league overdue")).original()
        assert overdue.content.endswith("Guacamole autumn is over."), overdue.content
        # Its last round's deadline has passed: /league round says when it ended, not "ends".
        last = await (await standin.slash(people[1], chan, "league round")).original()
        assert last.content.startswith("**Guacamole autumn**, round 3 of 3 (ended <t:"), last.content


async def test_a_single_elimination_cup_of_five_with_a_player_dropped(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "dora", "eloy")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        # A clock the round cannot hold is refused in words, and nothing is created.
        too_long = await standin.slash(
            owner,
            chan,
            "league create",
            name="Slow cup",
            game="pachakuna",
            format="elimination",
            players=2,
            days=2,
            clock="bank:3d",
        )
        said = (await too_long.original()).content
        assert "the starting bank (3 d) is longer than a round (2 d)" in said
        assert await bot.store.leagues.of_server(standin.guild.id) == []
        created = await standin.slash(
            owner,
            chan,
            "league create",
            name="Llama cup",
            game="pachakuna",
            format="elimination",
            players=2,
            days=2,
            clock="bank:1d12h+2h",
            drop_after=0,  # the organiser drops a player by hand here
        )
        signup = created.message
        assert "Clock: `bank:1d12h+2h`, a time bank of 1 d 12 h each, plus 2 h after each turn" in (
            signup.content
        )
        for user in people:
            joined = await standin.slash(user, chan, "league join", league="Llama cup")
            assert "Llama cup" in (await joined.original()).content
        early = await standin.slash(owner, chan, "league bracket")
        assert "drawn when the league starts" in (await early.original()).content
        started = await standin.slash(owner, chan, "league start")
        assert "has started: 3 rounds" in (await started.original()).content
        before = {t.id for t in standin.guild.threads}
        await fire(bot)
        round_one = threads_of(standin, before)
        assert len(round_one) == 1  # 5 players in a bracket of 8: three byes, one match
        # The league's game runs on the league's clock from its first move.
        session = await bot.sessions.core.in_channel(round_one[0].id)
        assert session.row.clock == "bank:1d12h+2h"
        mover = session.waiting_on()[0]
        table_clock.advance(6 * 3600)
        status = await (await standin.slash(owner, round_one[0], "game status")).original()
        assert "⏱ bank:1d12h+2h:" in status.content and f"{mover.name} 1 d 6 h (to move)" in status.content
        shown = await standin.slash(owner, chan, "league round")
        assert "Clock: `bank:1d12h+2h`" in (await shown.original()).content
        open_msg = next(m for m in standin.messages(chan) if "round 1 of 3 is open" in m.content)
        assert "Bye into the next round (1 point)" in open_msg.content and open_msg.content.count(",") >= 2
        table_clock.advance(2 * DAY - 6 * 3600)
        before = {t.id for t in standin.guild.threads}
        await fire(bot)
        # Nobody moved: the bank ran out after a day and a half and the others were asked; at the
        # round's deadline the computer finished the game all the same.
        said = [m.content for m in standin.messages(round_one[0])]
        assert any(f"{mover.mention}'s time ran out" in text for text in said)
        assert any("the computer finished the game" in text for text in said)
        assert (await bot.sessions.core.latest(round_one[0].id)).status == "finished"
        round_two = threads_of(standin, before)
        assert len(round_two) == 2
        # The organiser drops a player in the middle of round two: their game ends, the other wins.
        session = await bot.sessions.core.in_channel(round_two[0].id)
        dropped_id = session.seats[0].user_id
        dropped = next(u for u in people if u.id == dropped_id)
        opponent = next(s.user_id for s in session.seats if s.user_id != dropped_id)
        r = await standin.slash(owner, chan, "league organiser drop", member=dropped)
        told = (await r.original()).content
        assert "forfeit their remaining games" in told
        # the organiser is told the game ended, not that it went on
        assert "1 two-player game in play ended at once, won by the other player." in told
        assert "goes on" not in told and "went on" not in told
        ended = await bot.sessions.core.latest(round_two[0].id)
        assert (
            ended.status == "finished"
            and ended.by_seat(ended.row.outcome["ranking"][0][0]).user_id == opponent
        )
        again = await standin.slash(owner, chan, "league organiser drop", member=dropped)
        assert "dropped already" in (await again.original()).content
        table_clock.advance(2 * DAY)
        await fire(bot)
        drawn = await standin.slash(people[1], chan, "league bracket")
        picture, words = await drawn.followups(2)
        assert png_of(picture).width >= 640 and "Round 2:" in words.content and not words.files
        assert "Round 2:" in picture.files[0].description and len(picture.files[0].description) <= 1024
        table_clock.advance(2 * DAY)
        await fire(bot)
        end = next(m for m in standin.messages(chan) if "is over. Champion" in m.content)
        assert dropped.id not in end.pinged and len(end.pinged) == 1
        league = (await bot.store.leagues.of_server(standin.guild.id, live=False))[0]
        assert league.status == "finished" and league.champion_id in {u.id for u in people} - {dropped.id}
