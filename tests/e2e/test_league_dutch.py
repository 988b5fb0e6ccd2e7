"""A two-player Swiss league paired by the FIDE Dutch system, end to end, and the organiser's
pairing controls (forbidden pairs, a fixed table, the review step) through the stand-in.

Twelve people play four rounds of P'achakuna; every game is finished by the computer at the
round's deadline (seeded, so the results are the same every run).  The season's pairings are
replayed by the pairing library's own checker, round by round; who moves first is balanced as
colours are; the standings show the organiser's tiebreaks, in their order, with values the test
works out again from the stored games; and each player was told of each game as they chose.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict

from caissify_pairings.fpc import check_trf
from caissify_pairings.trf import write_trf

from tests.e2e.conftest import png_of
from tests.e2e.leagues import DAY, fire, threads_of
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_notices import settings
from tests.i18n.test_spanish_boards import drawn_texts

EXTENSIONS = (*LEAGUE_EXTENSIONS, "cogs.me")
ROUNDS = 4
NAMES = ("ana", "beto", "cusi", "dora", "eloy", "fatima", "gil", "hilda", "inti", "juana", "kusi", "lucho")


def season_trf(games, seeds) -> str:
    """The season as a FIDE TRF16 file: pairing numbers are the seeds fixed at the start, the
    first seat plays white, place 1 of 2 wins and equal places draw."""
    mark = {(1, 2): ("1", "0"), (2, 1): ("0", "1"), (1, 1): ("=", "=")}
    results: dict[int, dict[int, dict]] = defaultdict(dict)
    for g in games:
        a, b = sorted(g.seats, key=lambda s: s.position)
        ra, rb = mark[(a.place, b.place)]
        results[a.user_id][g.round] = {"opponent": seeds[b.user_id], "color": "w", "result": ra}
        results[b.user_id][g.round] = {"opponent": seeds[a.user_id], "color": "b", "result": rb}
    entries = [
        {"starting_number": n, "name": str(uid), "rating": 0, "results": results[uid]}
        for uid, n in sorted(seeds.items(), key=lambda x: x[1])
    ]
    return write_trf({"name": "league"}, entries, ROUNDS)


async def test_twelve_players_of_pachakuna_paired_by_the_dutch_system(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users(*NAMES)
    by_id = {u.id: u for u in people}
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, people[1], chan, where="dm")  # beto wants a direct message instead
        created = await standin.slash(
            owner,
            chan,
            "league create",
            name="Llama Swiss",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=ROUNDS,
            days=1,
            tiebreaks="Sonneborn-Berger, Buchholz, most wins",
            drop_after=0,  # nobody plays here: every game is a no-show, and nobody is dropped for it
        )
        assert "Llama Swiss" in created.message.content
        for user in people:
            await (await standin.slash(user, chan, "league join")).original()
        started = await standin.slash(owner, chan, "league start")
        assert "has started: 4 rounds" in (await started.original()).content
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        seeds = {p.user_id: p.seed for p in await bot.store.leagues.league_players(league.id)}
        assert sorted(seeds.values()) == list(range(1, 13))

        told: dict[int, list[str]] = defaultdict(list)  # each player, how they heard of each game
        before = {t.id for t in standin.guild.threads}
        for number in range(1, ROUNDS + 1):
            await fire(bot)
            post = await standin.next_message(
                chan, lambda m, n=number: f"round {n} of 4 is open" in m.content
            )
            assert "Bye" not in post.content  # twelve players: six games, nobody sits out
            threads = threads_of(standin, before)
            before |= {t.id for t in threads}
            assert len(threads) == 6
            await bot.front.catchup.drain()
            games = await bot.store.leagues.league_games(league.id, number)
            for thread in threads:
                opening = standin.messages(thread)[0]
                session = await bot.sessions.core.in_channel(thread.id)
                game = next(g for g in games if g.session_id == session.id)
                # The thread names both players, the first seat first, as the game seats them.
                assert [s.user_id for s in sorted(session.seats, key=lambda s: s.seat)] == game.players
                assert opening.content.startswith(" ".join(f"<@{u}>" for u in game.players))
                for uid in game.players:
                    dms = [
                        m
                        for m in standin.messages(standin.dm(by_id[uid]))
                        if f"round {number} of 4, is open" in m.content
                    ]
                    if uid in opening.pinged:
                        told[uid].append("ping")
                    if dms:
                        assert f"/{thread.id}" in dms[0].content  # the DM links the game's thread
                        told[uid].append("dm")
            table_clock.advance(DAY)
        await fire(bot)  # the last deadline: the season ends
        beto = people[1].id
        assert told[beto] == ["dm"] * ROUNDS
        assert all(told[u.id] == ["ping"] * ROUNDS for u in people if u.id != beto)

        league = await bot.store.leagues.league(league.id)
        assert league.status == "finished"
        games = await bot.store.leagues.league_games(league.id)
        assert len(games) == 6 * ROUNDS and all(g.status == "finished" for g in games)

        # The library's own checker re-pairs every round from the season and finds what we paired.
        report = check_trf(season_trf(games, seeds))
        assert report["summary"]["rounds_checked"] == ROUNDS
        assert report["summary"]["total_discrepancies"] == 0, report["rounds"]
        # No one met anyone twice; the first seat, like white, is balanced: nobody moved first (or
        # second) three games running, and each player's firsts and seconds differ by two at most.
        met = [frozenset(g.players) for g in games]
        assert len(set(met)) == len(met)
        for uid in seeds:
            seats = [g.players.index(uid) for g in sorted(games, key=lambda g: g.round) if uid in g.players]
            assert len(seats) == ROUNDS
            assert abs(seats.count(0) - seats.count(1)) <= 2, seats
            assert all(len(set(seats[i : i + 3])) == 2 for i in range(ROUNDS - 2)), seats

        # The tiebreaks, worked out again from the stored games: points, Sonneborn-Berger (the
        # points of those beaten, half of those drawn with), Buchholz, wins.
        points: dict[int, float] = defaultdict(float)
        wins: dict[int, int] = defaultdict(int)
        for g in games:
            for s in g.seats:
                points[s.user_id] += s.points or 0.0
                wins[s.user_id] += s.place == 1 and all(o.place == 2 for o in g.seats if o is not s)
        sb: dict[int, float] = defaultdict(float)
        bh: dict[int, float] = defaultdict(float)
        for g in games:
            a, b = g.seats
            for me, other in ((a, b), (b, a)):
                bh[me.user_id] += points[other.user_id]
                if me.place < other.place:
                    sb[me.user_id] += points[other.user_id]
                elif me.place == other.place:
                    sb[me.user_id] += points[other.user_id] / 2

        with drawn_texts() as (drawn, _):
            asked = await standin.slash(people[3], chan, "league standings")
            picture, text = await asked.followups(2)
        image = png_of(picture)
        assert image.width == 1000  # SB, BH and Won in the place of the one tiebreak column
        assert {"SB", "BH", "Won", "Rating"} <= set(drawn) and not {"TB", "W"} & set(drawn)
        for uid in seeds:  # each player's row draws their three values
            assert {f"{sb[uid]:g}", f"{bh[uid]:g}", str(wins[uid])} <= set(drawn)
        lines = text.content.splitlines()
        assert "final standings after 4 rounds" in lines[0]
        assert lines[-1] == "Tiebreaks, in order: SB: Sonneborn-Berger, BH: Buchholz, Won: most wins"
        names = {p.user_id: p.name for p in await bot.store.leagues.league_players(league.id)}
        ranked = []
        for line in lines[1:-1]:
            name = line.split(". ", 1)[1].split(":", 1)[0]
            uid = next(u for u, n in names.items() if n == name)
            ranked.append(uid)
            # Without the move since the round before and the no-shows (nobody here played).
            values = re.sub(r"(; (up|down) \d+)?(, \d+ no-shows?)?$", "", line)
            assert values.endswith(f"; SB {sb[uid]:g}, BH {bh[uid]:g}, Won {wins[uid]}"), line
        assert len(ranked) == 12
        key = [(-points[u], -sb[u], -bh[u], -wins[u]) for u in ranked]
        assert key == sorted(key)  # ranked by points, then the tiebreaks in the organiser's order

        exported = await standin.slash(people[3], chan, "league export")
        data = (await exported.original()).files[0]
        rows = list(csv.reader(io.StringIO(bytes(data).decode("utf-8"))))
        assert rows[0][7:] == [
            "sonneborn_berger",
            "buchholz",
            "most_wins",
            "rating",
            "no_shows",
            "dropped",
            "dropped_round",
            "games_not_played",
        ]
        for row in rows[1:13]:
            uid = int(row[2])
            assert row[7:10] == [f"{sb[uid]:g}", f"{bh[uid]:g}", f"{wins[uid]}"]


async def test_the_organiser_forbids_a_pair_fixes_a_table_and_reviews_a_round(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    owner = standin.owner
    ana, beto, cusi, dora, eloy = people = standin.add_users("ana", "beto", "cusi", "dora", "eloy")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        bad = await standin.slash(
            owner,
            chan,
            "league create",
            name="Llamas",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=2,
            tiebreaks="Buchholz, elo",
        )
        said = (await bad.original()).content
        assert '"elo" is not a tiebreak; choose from: BH (Buchholz)' in said
        assert await bot.store.leagues.of_server(standin.guild.id) == []  # nothing was created
        offered = await standin.autocomplete(owner, chan, "league create", "tiebreaks", tiebreaks="SB, bu")
        assert [c["value"] for c in offered] == [
            "sonneborn_berger, buchholz",
            "sonneborn_berger, median_buchholz",
        ]
        await (
            await standin.slash(
                owner,
                chan,
                "league create",
                name="Llamas",
                game="pachakuna",
                format="swiss",
                players=2,
                rounds=2,
                review=True,
            )
        ).original()
        for user in people:
            await (await standin.slash(user, chan, "league join")).original()
        nope = await standin.slash(ana, chan, "league organiser forbid", player=beto, other=cusi)
        assert "Manage Server" in (await nope.original()).content
        forbid = await standin.slash(owner, chan, "league organiser forbid", player=ana, other=beto)
        assert (await forbid.original()).content == "Ana and Beto will not be paired together in Llamas."
        fixed = await standin.slash(owner, chan, "league organiser pair", first=eloy, second=cusi)
        assert "Round 1 of Llamas will seat Eloy, Cusi at one table" in (await fixed.original()).content
        clash = await standin.slash(owner, chan, "league organiser pair", first=ana, second=beto)
        assert "are a forbidden pair" in (await clash.original()).content
        await (await standin.slash(owner, chan, "league start")).original()
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]

        # The round is paired but not published: no thread, no post, only the organiser hears
        # (by direct message, as they chose).
        await settings(standin, owner, chan, where="dm")
        before = {t.id for t in standin.guild.threads}
        standin.skip_messages(chan)
        await fire(bot)
        assert (
            threads_of(standin, before) == []
            and (await bot.store.leagues.league(league.id)).current_round == 0
        )
        assert not [m for m in standin.messages(chan) if "is open" in m.content]
        (dm,) = standin.messages(standin.dm(owner))
        assert "round 1: the tables before they are published" in dm.content
        assert "Table 1: Eloy, Cusi" in dm.content and "/league organiser review" in dm.content
        for user in people:
            assert standin.messages(standin.dm(user)) == []
        draft = await bot.store.league_pairing.draft(league.id, 1)
        assert draft is not None
        groups, byes = draft
        assert groups[0] == [eloy.id, cusi.id] and len(byes) == 1
        assert not any({ana.id, beto.id} <= set(g) for g in groups)

        peek = await standin.slash(ana, chan, "league organiser review")
        assert "Manage Server" in (await peek.original()).content
        review = await standin.slash(owner, chan, "league organiser review")
        shown = await review.original()
        assert shown.ephemeral and "only you see this" in shown.content
        # Swap the player with a bye into cusi's seat.
        by = next(u for u in people if u.id == byes[0])
        by_name = {p.user_id: p.name for p in await bot.store.leagues.league_players(league.id)}[by.id]
        swapped = await standin.select(owner, shown, "Pick two players to swap", [cusi, by])
        assert swapped.type == 7
        shown = standin.message(shown.id)
        assert f"Table 1: Eloy, {by_name}" in shown.content and "Bye: Cusi" in shown.content
        same = await standin.select(owner, shown, "Pick two players to swap", [eloy, by])
        assert "Pick two players at different tables" in (await same.original()).content
        published = await standin.click(owner, shown, "Publish")
        await published.original()
        opened = await standin.next_message(chan, lambda m: "round 1 of 2 is open" in m.content)
        assert "is published" in standin.message(shown.id).content
        assert f"Table 1: Eloy, {by_name}" in opened.content and "Bye (1 point): Cusi" in opened.content
        assert len(threads_of(standin, before)) == 2
        assert not standin.message(shown.id).components  # the controls go once it is published
        assert len(await bot.store.leagues.league_games(league.id, 1)) == 2


async def test_a_reviewed_round_once_published_is_run_like_any_other(standin, bot_factory, table_clock):
    """Publishing a reviewed round does what opening it by the clock does: it says who sat the round
    out (a bye asked for), and arms the reminder before the deadline, which reaches the late player."""
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "dora", "eloy")
    eloy = people[4]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (
            await standin.slash(
                owner,
                chan,
                "league create",
                name="Vicuñas",
                game="pachakuna",
                format="swiss",
                players=2,
                rounds=2,
                days=3,
                review=True,
            )
        ).original()
        for user in people:
            await (await standin.slash(user, chan, "league join")).original()
        asked = await (await standin.slash(eloy, chan, "league bye", round=1)).original()
        assert "bye in round 1 of Vicuñas" in asked.content
        await (await standin.slash(owner, chan, "league start")).original()
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        await fire(bot)
        assert (await bot.store.leagues.league(league.id)).current_round == 0  # waits for the review
        shown = await (await standin.slash(owner, chan, "league organiser review")).original()
        standin.skip_messages(chan)
        await (await standin.click(owner, shown, "Publish")).original()
        await standin.next_message(chan, lambda m: "round 1 of 2 is open" in m.content)
        sat = await standin.next_message(chan, lambda m: "Bye asked for" in m.content)
        assert "**Vicuñas**\nBye asked for: Eloy (" in sat.content
        nudge = await bot.store.jobs.job("league_nudge", f"{league.id}:1")
        assert nudge is not None and nudge.payload["stage"] == "remind"
        # Two days on (a day before the deadline), whoever is to move is reminded in their thread.
        games = await bot.store.leagues.league_games(league.id, 1)
        threads = [(await bot.sessions.core.get(g.session_id)).row.channel_id for g in games]
        for thread in threads:
            standin.skip_messages(standin.channel(thread))
        table_clock.advance(2 * DAY)
        await bot.scheduler.run_due()
        for thread in threads:
            await standin.next_message(
                standin.channel(thread),
                lambda m: "your turn is waiting; this round of **Vicuñas**" in m.content,
            )
