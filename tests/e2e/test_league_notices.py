"""A league round's game notices follow each player's ``/me notify`` choice, end to end.

Six people in two-player P'achakuna, each with another choice: a mention in the thread, a
direct message, both, none, a direct message that Discord refuses (it falls back to a mention),
and a direct message in quiet hours (held back).  The game's opening post names every player;
it pings, and the bot writes to, only those their choices ask for.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.time.jobs import LEAGUE_NUDGE
from tests.e2e.leagues import DAY, HOUR, fire, one_round_league, review_cup, started_league, threads_of
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_notices import settings

EXTENSIONS = (*LEAGUE_EXTENSIONS, "cogs.me")
OPEN = "game for **Notice cup**, round 1 of 1, is open"


async def test_a_round_opening_pings_and_writes_to_each_player_as_they_chose(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    names = ("thread", "dm", "both", "none", "refused", "quiet")
    people = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for choice, user in people.items():
            if choice == "refused":
                await settings(standin, user, chan, where="dm")
                standin.close_dms(user)
            elif choice == "quiet":  # the manual clock says 03:00 in Lima: quiet hours
                await settings(standin, user, chan, where="dm", time_zone="America/Lima", quiet="22-7")
            else:
                await settings(standin, user, chan, where=choice)
        await started_league(
            standin,
            chan,
            people.values(),
            name="Notice cup",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=1,
        )
        before = {t.id for t in standin.guild.threads}
        await fire(bot)
        await standin.next_message(chan, lambda m: "round 1 of 1 is open" in m.content)
        await bot.front.catchup.drain()
        threads = threads_of(standin, before)
        assert len(threads) == 3
        opening = {}
        for thread in threads:
            first = standin.messages(thread)[0]
            for user in people.values():
                if f"<@{user.id}>" in first.content:
                    opening[user.id] = first
        assert set(opening) == {u.id for u in people.values()}  # every player is named in their thread

        pinged = {c for c, u in people.items() if u.id in opening[u.id].pinged}
        assert pinged == {"thread", "both", "refused"}
        written = {
            c for c, u in people.items() if any(OPEN in m.content for m in standin.messages(standin.dm(u)))
        }
        assert written == {"dm", "both"}
        dm = next(m for m in standin.messages(standin.dm(people["dm"])) if OPEN in m.content)
        thread = next(t for t in threads if opening[people["dm"].id] is standin.messages(t)[0])
        assert f"https://discord.com/channels/{standin.guild.id}/{thread.id}" in dm.content
        assert standin.messages(standin.dm(people["none"])) == []
        assert standin.messages(standin.dm(people["quiet"])) == []  # quiet hours: nothing now

        # The round ends; the champion is crowned by the same rules (a ping only if they want one).
        table_clock.advance(7 * DAY)
        await fire(bot)
        end = next(m for m in standin.messages(chan) if "is over. Champion" in m.content)
        (champion,) = (c for c, u in people.items() if f"<@{u.id}>" in end.content)
        assert (people[champion].id in end.pinged) == (champion in ("thread", "both", "refused"))


async def test_a_player_dropped_for_no_shows_is_told_as_they_chose(standin, bot_factory, table_clock):
    """Four people, none playing: at round 1's deadline the two to move have a no-show each,
    which is the league's limit.  The post saying they are dropped pings only the one who wants
    mentions; the one who wants direct messages gets one instead, and nobody else is written to."""
    chan = standin.channel("games")
    names = ("thread", "dm", "both", "none")
    people = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for choice, user in people.items():
            await settings(standin, user, chan, where=choice)
        await started_league(
            standin,
            chan,
            people.values(),
            name="Notice cup",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=2,
            days=1,
            drop_after=1,
        )
        await fire(bot)
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        late = set()
        for game in await bot.store.leagues.league_games(league.id, 1):
            late |= {s.user_id for s in (await bot.sessions.core.get(game.session_id)).waiting_on()}
        dms = {u.id: len(standin.messages(standin.dm(u))) for u in people.values()}
        table_clock.advance(DAY)
        await fire(bot)
        await bot.front.catchup.drain()
        dropped = [m for m in standin.messages(chan) if "is dropped from **Notice cup**" in m.content]
        assert {u for m in dropped for u in people.values() if f"<@{u.id}>" in m.content} == {
            people[n] for n in names if people[n].id in late
        }
        wants_ping = {people[n].id for n in ("thread", "both")}
        wants_dm = {people[n].id for n in ("dm", "both")}
        assert set().union(*(m.pinged for m in dropped)) == late & wants_ping
        for user in people.values():
            new = standin.messages(standin.dm(user))[dms[user.id] :]
            told = [m for m in new if "You are dropped from **Notice cup**" in m.content]
            assert len(told) == (1 if user.id in late & wants_dm else 0), (
                user.name,
                [m.content for m in new],
            )
            if told:
                assert "reached its limit (1)" in told[0].content


async def test_the_organiser_is_told_of_late_games_as_they_chose(standin, bot_factory, table_clock):
    """The organiser wants direct messages: the post listing the late games names them without a
    ping, and a direct message carries it."""
    chan = standin.channel("games")
    owner = standin.owner
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, owner, chan, where="dm")
        await started_league(
            standin,
            chan,
            (ana, beto),
            name="Late cup",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=1,
            days=1,
        )
        await fire(bot)
        table_clock.advance(21 * 3600)  # three hours (an eighth of the round) before the deadline
        await fire(bot)
        (told,) = [m for m in standin.messages(chan) if "1 game of **Late cup** is late" in m.content]
        assert f"<@{owner.id}>" in told.content and owner.id not in told.pinged
        (dm,) = [
            m for m in standin.messages(standin.dm(owner)) if "1 game of **Late cup** is late" in m.content
        ]
        assert "Table 1 waits for" in dm.content


async def test_an_organiser_who_wants_mentions_is_pinged_for_a_review_not_written_to(
    standin, bot_factory, table_clock
):
    """A round waiting for the review of an organiser who wants mentions (the default) is posted
    in the league's channel with a ping, without its tables, and no DM is sent."""
    chan = standin.channel("games")
    owner = standin.owner
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await review_cup(standin, chan, (ana, beto))
        before = len(standin.messages(standin.dm(owner)))
        await fire(bot)
        (waits,) = [m for m in standin.messages(chan) if "waits for your review" in m.content]
        assert owner.id in waits.pinged and "Table 1" not in waits.content
        assert len(standin.messages(standin.dm(owner))) == before  # no DM: they want mentions


async def test_a_late_players_warning_held_by_quiet_hours_comes_by_dm_when_they_end(
    standin, bot_factory, table_clock
):
    """A player who takes news only by direct message is warned of a late game in their quiet
    hours: the thread names them without a ping, and the warning comes by DM once those hours end,
    before the round's deadline, once."""
    chan = standin.channel("games")
    users = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.pachakuna"))) as bot:
        await standin.wait_synced()
        league, session = await one_round_league(standin, bot, chan, users, game="pachakuna", players=2)
        (late,) = [u for u in users if u.id in {s.user_id for s in session.waiting_on()}]
        (nudge,) = await bot.store.jobs.pending(LEAGUE_NUDGE)
        warn_at = float(nudge.payload["warn_at"])
        (round_,) = await bot.store.leagues.league_rounds(league.id)
        hour = datetime.fromtimestamp(warn_at, UTC).hour
        quiet_over = datetime.fromtimestamp(warn_at, UTC).replace(minute=0, second=0).timestamp() + 2 * HOUR
        assert warn_at < quiet_over < round_.deadline_at
        await settings(
            standin, late, chan, where="dm", reminders=0, time_zone="UTC", quiet=f"{hour}-{(hour + 2) % 24}"
        )
        warned = "is waiting for you, and the round ends"
        table_clock.advance(warn_at - table_clock.time() + 1)
        await fire(bot)
        thread = standin.channel(session.row.channel_id)
        (post,) = [m for m in standin.messages(thread) if "this game is waiting for you" in m.content]
        assert late.mention in post.content and late.id not in post.pinged
        assert not [m for m in standin.messages(standin.dm(late)) if warned in m.content]
        table_clock.advance(quiet_over - table_clock.time() + 60)
        await fire(bot)
        await fire(bot)
        assert table_clock.time() < round_.deadline_at
        (dm,) = [m.content for m in standin.messages(standin.dm(late)) if warned in m.content]
        assert f"<t:{int(round_.deadline_at)}:f>" in dm
