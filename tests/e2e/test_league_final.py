"""A Swiss league that ends in a knockout final, end to end: the real bot against the Discord
stand-in, time moved by the test.

Five people in two-player P'achakuna play two Swiss rounds (a bye each round), then the top three
play a final stage (the top seed waits a round); the final's winner is the champion.  Before
that, the first round waits for the thread permissions the organiser is told are missing.  The
league's games also make a rating season, shown by ``/game ratings season:``.
"""

from __future__ import annotations

from bot.storage.leagues import ROUND_JOB
from tests.e2e.conftest import png_of
from tests.e2e.leagues import DAY, EXTENSIONS, fire, threads_of
from tests.standin.model import CREATE_PUBLIC_THREADS, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS


async def test_a_swiss_league_with_a_final_of_its_top_three(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "dora", "eloy")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (
            await standin.slash(
                owner,
                chan,
                "league create",
                name="Llama open",
                game="pachakuna",
                format="swiss",
                players=2,
                rounds=2,
                days=1,
                drop_after=0,  # nobody is dropped for the games the computer finishes
            )
        ).original()
        for user in people:
            joined = await standin.slash(user, chan, "league join")
            await joined.original()  # the sign-up is stored before the next command
        # Only an organiser sets the final stage, and only a sensible size.
        nope = await standin.slash(people[0], chan, "league final", top=3)
        assert "Manage Server" in (await nope.original()).content
        too_small = await standin.slash(owner, chan, "league final", top=1)
        assert "2 to 1000 players" in (await too_small.original()).content
        final = await standin.slash(owner, chan, "league final", top=3)
        said = (await final.original()).content
        assert (
            "After round 2, the top 3" in said
            and "over 2 rounds" in said
            and "top seed starting with a bye" in said
        )
        started = await standin.slash(owner, chan, "league start")
        assert "has started: 4 rounds" in (await started.original()).content
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        assert (league.final_top, league.final_round, league.rounds) == (3, 3, 4)

        # The bot may not open threads here: the round waits, and the organiser is told once.
        standin.set_permissions(chan, standin.bot_role, deny=CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
        await standin.settle()
        before = {t.id for t in standin.guild.threads}
        standin.skip_messages(chan)
        await fire(bot)
        told = await standin.next_message(chan)
        assert owner.id in told.pinged and "cannot open" in told.content
        assert "Create Public Threads and Send Messages in Threads" in told.content
        assert (
            threads_of(standin, before) == []
            and (await bot.store.leagues.league(league.id)).current_round == 0
        )
        table_clock.advance(600)
        await fire(bot)
        assert [m for m in standin.messages(chan) if "cannot open" in m.content] == [told]  # once
        assert (await bot.store.leagues.league(league.id)).current_round == 0
        standin.set_permissions(chan, standin.bot_role)  # the admin gives them back
        await standin.settle()
        table_clock.advance(600)
        await fire(bot)
        opened = await standin.next_message(chan, lambda m: "round 1 of 2 is open" in m.content)
        assert "Bye (1 point)" in opened.content and len(threads_of(standin, before)) == 2

        # Two Swiss rounds, each finished by the computer at its deadline.
        for _ in (1, 2):
            table_clock.advance(DAY)
            await fire(bot)
        stage = await standin.next_message(chan, lambda m: "of the final stage is open" in m.content)
        assert "round 1 of 2 of the final stage" in stage.content
        seeds_line = next(x for x in stage.content.splitlines() if x.startswith("The final stage, seeded"))
        seeded = [part.split(". ", 1)[1] for part in seeds_line.split(": ", 1)[1].split(", ")]
        assert len(seeded) == 3 and f"Bye into the next round: {seeded[0]}" in stage.content
        standings = await bot.get_cog("LeagueCog").leagues.standings(
            await bot.store.leagues.league(league.id)
        )
        assert seeded == [s.name for s in standings[:3]]  # seeded by the Swiss standings
        semi_threads = [t for t in standin.guild.threads if "final round 1 ·" in t.name]
        assert len(semi_threads) == 1
        ids = {p.name: p.user_id for p in await bot.store.leagues.league_players(league.id)}
        semi = await bot.sessions.core.in_channel(semi_threads[0].id)
        assert {s.user_id for s in semi.seats} == {ids[seeded[1]], ids[seeded[2]]}

        drawn = await standin.slash(people[4], chan, "league bracket")
        picture, words = await drawn.followups(2)
        assert png_of(picture).width >= 640 and "final stage" in picture.content
        assert "Round 1:" in words.content and "bye" in words.content and not words.files
        posted = standin.messages(chan)
        assert posted.index(words) == posted.index(picture) + 1

        table_clock.advance(DAY)
        await fire(bot)
        (final_thread,) = [t for t in standin.guild.threads if "final round 2 ·" in t.name]
        final_game = await bot.sessions.core.in_channel(final_thread.id)
        finalists = {s.user_id for s in final_game.seats}
        assert len(finalists) == 2 and ids[seeded[0]] in finalists  # the top seed meets the semi's winner
        table_clock.advance(DAY)
        await fire(bot)

        posted = standin.messages(chan)
        end = next(m for m in posted if "is over. Champion" in m.content)
        assert "(winner of the final stage)" in end.content
        (champion,) = end.pinged
        league = await bot.store.leagues.league(league.id)
        assert league.status == "finished" and league.champion_id == champion and champion in finalists
        ended = await bot.sessions.core.latest(final_thread.id)
        assert ended.by_seat(ended.row.outcome["ranking"][0][0]).user_id == champion
        assert png_of(end).width == 1000
        at = posted.index(end)
        text, bracket_picture, bracket_text = posted[at + 1 : at + 4]
        assert "final standings after 2 rounds" in text.content and not text.files
        assert png_of(bracket_picture).width >= 640 and "Round 2:" in bracket_text.content
        names = {v: k for k, v in ids.items()}
        assert bracket_text.content.splitlines()[-1].endswith(f": {names[champion]} won")

        # The league is a rating season of its own.
        choices = await standin.autocomplete(owner, chan, "game ratings", "season", game="pachakuna")
        assert choices == [{"name": "Llama open (ended)", "value": str(league.id)}]
        assert await standin.autocomplete(owner, chan, "game ratings", "season", game="guacamole") == []
        season = await standin.slash(people[0], chan, "game ratings", game="pachakuna", season=str(league.id))
        shown = (await season.original()).content
        assert "ratings in the season Llama open" in shown and shown.count("\n") == 5
        alltime = await standin.slash(people[0], chan, "game ratings", game="pachakuna")
        assert "all time" in (await alltime.original()).content
        wrong = await standin.slash(people[0], chan, "game ratings", game="pachakuna", season="Winter")
        assert "is not a P'achakuna season" in (await wrong.original()).content


async def test_the_organiser_hears_by_dm_when_the_bot_cannot_post_in_the_league_channel(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (
            await standin.slash(
                owner,
                chan,
                "league create",
                name="Duel",
                game="pachakuna",
                format="swiss",
                players=2,
                rounds=1,
            )
        ).original()
        for user in people:
            joined = await standin.slash(user, chan, "league join")
            await joined.original()  # the sign-up is stored before the next command
        started = await standin.slash(owner, chan, "league start")
        assert "has started" in (await started.original()).content
        standin.set_permissions(chan, standin.bot_role, deny=SEND_MESSAGES | CREATE_PUBLIC_THREADS)
        await standin.settle()
        standin.skip_messages(chan)
        await fire(bot)
        (told,) = standin.messages(standin.dm(owner))
        assert "I am missing Send Messages, " in told.content and "Duel" in told.content
        assert " and Create Public Threads in" in told.content and owner.id in told.pinged
        assert [m for m in standin.messages(chan) if not m.ephemeral and "cannot open" in m.content] == []
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        assert league.current_round == 0
        job = await bot.store.jobs.job(ROUND_JOB, str(league.id))
        # Without Send Messages, Discord also withholds Attach Files and Embed Links; all are named.
        missing = job.payload["missing"]
        assert missing[0] == "Send Messages" and missing[-1] == "Create Public Threads"
        assert job.due_at == table_clock.time() + 600
