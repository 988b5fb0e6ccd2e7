"""A league's web page against what the league posts in Discord: who sat a round out and why (a
bye asked for, a pause, a late sign-up, a missed check-in: not all of them byes, not all worth a
point), each player's no-shows, and a rating that is none yet (the picture's dash, not 0)."""

from __future__ import annotations

import re

import pytest

from bot.league.presence import Attendance
from bot.league.season import Rounds
from bot.league.service import LeagueService
from bot.league.texts import round_heading
from bot.storage.noshows import Substitute
from languages import language
from tests.league.test_noshow_storage import running_league
from tests.league.test_service import DAY, counter, new_league, open_games, play_out
from tests.table.test_web_pages import serve


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


def cells(html: str, heading: str) -> list[list[str]]:
    """The rows of the table under the heading ``heading`` (its cells' text)."""
    part = html.split(f'id="{heading}"', 1)[1].split("</table>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", part, re.S)
        if "<td" in row
    ]


async def league_html(service, league_id: int, *queries: str) -> list[str]:
    """The league's web page, once per query string (``""``, ``"?lang=es"``)."""
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league_id)
        return [await (await client.get(f"/l/{token}{query}")).text() for query in queries]
    finally:
        pages.close()
        await client.close()


async def test_who_sat_out_their_points_and_no_shows_as_discord_says(leagues, service, clock):
    store = service.store
    desk = Attendance(leagues)
    league = await new_league(
        leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=4, days=1, seed=8
    )
    names = {uid: f"n{uid}" for uid in (401, 402, 403, 404, 405, 406)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    await desk.configure(league, "first", 2.0, "full")
    await desk.ask_bye(league, 401, 1)
    league, _ = await leagues.start(league)
    await store.attendance.open_window(league.id, 1, clock.time() + 3600)
    for uid in (403, 404, 405, 406):
        await desk.check_in(league, uid)
    clock.advance(3600)
    opened = await leagues.open_round(league.id, 1)
    await open_games(leagues, opened, names, counter(4000))
    league = await store.leagues.league(league.id)
    await desk.late_join(league, 407, "n407")
    await desk.pause(league, 404, 1)
    game = opened.games[0]
    await store.noshows.record(league.id, game.id, 1, [game.players[0]], "computer")
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    kinds = await store.attendance.bye_kinds(league.id)
    assert kinds == {(1, 401): "requested", (1, 402): "absent", (1, 407): "late"}

    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        html = await (await client.get(f"/l/{token}")).text()
        round_one = html.split("<h3>Round 1</h3>", 1)[1].split("</ul>", 1)[0]
        assert "Not paired in round 1 of 4 (did not check in): n402" in round_one
        assert "Bye asked for: n401 (1 point)" in round_one
        assert "Joined late: n407 (1 point)" in round_one
        assert "Bye: " not in round_one  # nobody had the pairing's bye
        rows = {row[1]: row for row in cells(html, "standings-h")}
        late = names[game.players[0]]
        assert rows[f"{late} (1 no-show)"] is not None
        # A rating as the standings picture draws it; a dash for those with no rated game yet.
        rated = await leagues.rating_map(league)
        assert 0 < len(rated) < len(rows)
        for name, row in rows.items():
            uid = int(re.match(r"n(\d+)", name).group(1))
            assert row[-2] == (f"{rated[uid]:.1f}" if uid in rated else "–"), row
        es = await (await client.get(f"/l/{token}?lang=es")).text()
        assert "Ronda libre pedida: n401 (1 punto)" in es
    finally:
        pages.close()
        await client.close()


async def test_a_finished_swiss_league_names_its_champion(leagues, service, clock):
    """The season's end post names the champion; so does the page (it did only for a bracket)."""
    store = service.store
    league = await new_league(
        leagues, name="Nim short", game="nim", format="swiss", group_size=2, rounds=1, days=1, seed=3
    )
    names = {uid: f"n{uid}" for uid in (501, 502, 503, 504)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    await open_games(leagues, opened, names, counter(5000))
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    champion = await leagues.champion(await store.leagues.league(league.id))
    assert champion in names
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        html = await (await client.get(f"/l/{token}")).text()
        assert f"Champion: {names[champion]}" in html
        assert "Se lleva el título" in await (await client.get(f"/l/{token}?lang=es")).text()
    finally:
        pages.close()
        await client.close()


async def first_round_played(leagues, service, players: int):
    """A Swiss Nim league of ``players`` people (n601, n602, ...) whose first round is played out."""
    league = await new_league(
        leagues, name="Nim many", game="nim", format="swiss", group_size=2, rounds=1, days=1, seed=3
    )
    names = {uid: f"n{uid}" for uid in range(601, 601 + players)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    for session in await open_games(leagues, await leagues.open_round(league.id, 1), names, counter(6000)):
        await play_out(service, session)
    return league


async def test_a_season_rating_table_cut_short_says_how_many_it_leaves_out(leagues, service, monkeypatch):
    """The season's rating table lists the top :data:`~bot.web.standings.SEASON_TOP` players (100;
    4 here, with six rated); past them it says so under the table, and how many it leaves out,
    where it stopped in silence."""
    from bot.web import standings

    league = await first_round_played(leagues, service, 6)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        for top, said in (
            (4, {"en": "Only the top 4 are listed: 2 more players are not.", "es": "Solo se muestran los 4 primeros: faltan 2 jugadores más."}),
            (5, {"en": "Only the top 5 are listed: 1 more player is not.", "es": "Solo se muestran los 5 primeros: falta 1 jugador más."}),
            (6, {}),
        ):  # fmt: skip
            monkeypatch.setattr(standings, "SEASON_TOP", top)
            for lang in ("en", "es"):
                html = await (await client.get(f"/l/{token}?lang={lang}")).text()
                assert len(cells(html, "ratings-h")) == top, (top, lang)
                part = html.split('id="ratings-h"', 1)[1].split("</section>", 1)[0]
                below = re.findall(r"</table>\s*</div>\s*<p>([^<]*)</p>", part)
                assert below == ([said[lang]] if said else []), (top, lang, below)
                # one decimal, as the standings' column and a person's page write a rating
                written = [row[2] for row in cells(html, "ratings-h")]
                assert all(
                    re.fullmatch(r"-?\d+[.]\d" if lang == "en" else r"-?\d+,\d", r) for r in written
                ), written
        monkeypatch.setattr(standings, "shown", lambda mu, sigma: 4.0)  # a whole rating: "4.0", not "4"
        assert {row[2] for row in cells(await (await client.get(f"/l/{token}")).text(), "ratings-h")} == {
            "4.0"
        }
    finally:
        pages.close()
        await client.close()


async def test_the_league_page_names_the_options_its_games_are_played_with(leagues, service):
    """As the sign-up message does: "Options: apprentice mode; with stoppers", in the reader's
    language."""
    league = await new_league(
        leagues, name="Looms", game="guanga", format="swiss", group_size=2, rounds=2, days=1, seed=3,
        options={"mode": "apprentice", "stoppers": "yes"},
    )  # fmt: skip
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        html = await (await client.get(f"/l/{token}")).text()
        assert '<p class="options">Options: apprentice mode; with stoppers</p>' in html
        es = await (await client.get(f"/l/{token}?lang=es")).text()
        assert '<p class="options">Opciones: modo Aprendiz; ' in es
    finally:
        await client.close()


async def test_a_league_nobody_has_signed_up_for_says_so(leagues, service):
    """A league just made: no empty table of standings, but a sentence saying why there are none,
    in the reader's language."""
    league = await new_league(
        leagues, name="New", game="guanga", format="swiss", group_size=2, rounds=2, days=1, seed=3
    )
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        for lang, said in (("en", "Nobody has signed up yet."), ("es", "Todavía no se ha inscrito nadie.")):
            html = await (await client.get(f"/l/{token}?lang={lang}")).text()
            standings = html.split('id="standings-h"', 1)[1].split("</section>", 1)[0]
            assert "<table>" not in standings, lang
            assert f"<p>{said}</p>" in standings, lang
        await leagues.join(league, 401, "n401")
        html = await (await client.get(f"/l/{token}")).text()
        assert "Nobody has signed up yet." not in html
        assert cells(html, "standings-h")[0][1] == "n401"
    finally:
        await client.close()


async def round_under_way(leagues, service, name: str, players: int):
    """A two-round Swiss Nim league called ``name`` of ``players`` people (n601, n602, ...) whose
    first round is open: its first table's game played out, its second's opened and being played,
    the others not opened.  The league, the names, the round's games and the channels' counter."""
    league = await new_league(
        leagues, name=name, game="nim", format="swiss", group_size=2, rounds=2, days=1, seed=5
    )
    names = {uid: f"n{uid}" for uid in range(601, 601 + players)}
    for uid, player in names.items():
        await leagues.join(league, uid, player)
    league, _ = await leagues.start(league)
    games = (await leagues.open_round(league.id, 1)).games
    channels = counter(6000)
    await play_out(service, await leagues.open_game(league, games[0], next(channels), names))
    await leagues.open_game(league, games[1], next(channels), names)
    return league, names, games, channels


def round_tables(html: str) -> dict[int, str]:
    """Round 1's tables on a league's page: table number -> its line's text."""
    round_one = html.split("<h3>Round 1</h3>", 1)[1].split("</ul>", 1)[0]
    return {
        int(m.group(1)): re.sub(r"<[^>]+>", "", m.group(2))
        for m in re.finditer(r"<li>Table (\d+): (.*?)</li>", round_one)
    }


async def test_each_table_says_how_far_its_game_is_and_who_forfeited(leagues, service):
    """As ``/league round`` does: a game being played says so, a table not opened yet too, a
    finished one gives each player's place (an ordinal, not a bare number), and a seat that
    forfeited is marked, as is a table never played because too few players were left."""
    store = service.store
    league, names, games, channels = await round_under_way(leagues, service, "Nim tables", 8)
    played, playing, forfeited, unopened = games
    gone, stays = forfeited.players
    await leagues.drop(league, gone)
    assert await leagues.open_game(league, forfeited, next(channels), names) is None

    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        html = await (await client.get(f"/l/{token}")).text()
        tables = round_tables(html)
        places = {s.user_id: s.place for g in await store.leagues.league_games(league.id, 1) for s in g.seats}
        first = next(u for u in played.players if places[u] == 1)
        second = next(u for u in played.players if places[u] == 2)
        assert f"{names[first]} (1st)" in tables[played.table_no]
        assert f"{names[second]} (2nd)" in tables[played.table_no]
        # its game's link, "game #N" kept on one line (a no-break space)
        assert "being played" in tables[playing.table_no] and "game\xa0#" in tables[playing.table_no]
        assert f"{names[gone]} (2nd, forfeited)" in tables[forfeited.table_no]
        assert f"{names[stays]} (1st)" in tables[forfeited.table_no]
        assert "not played (forfeited)" in tables[forfeited.table_no]
        assert "not opened" in tables[unopened.table_no]
        es = await (await client.get(f"/l/{token}?lang=es")).text()
        assert f"{names[first]} (1.º)" in es
        assert "en juego" in es and "sin abrir" in es
        assert f"{names[gone]} (2.º, por abandono)" in es
        assert "no jugada (por abandono)" in es
    finally:
        pages.close()
        await client.close()


async def test_the_bracket_names_its_byes_and_the_places_not_decided_yet(leagues, service):
    """As the bracket's picture and post do: a first-round match against nobody is a bye, a later
    one whose player is not known yet is "to be decided"; the page wrote a dash for both (which a
    screen reader reads as "em dash")."""
    league = await new_league(
        leagues, name="Nim cup", game="nim", format="elimination", group_size=2, rounds=3, days=1, seed=2
    )
    for uid in range(701, 706):  # five players in a bracket of eight: three byes
        await leagues.join(league, uid, f"n{uid}")
    league, _ = await leagues.start(league)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        for lang, bye, later, versus in (
            ("en", "bye", "to be decided", " v "),
            ("es", "pase directo", "por decidir", " contra "),
        ):
            html = await (await client.get(f"/l/{token}?lang={lang}")).text()
            bracket = html.split('id="bracket-h"', 1)[1].split("</section>", 1)[0]
            rounds = [re.findall(r"<li>(.*?)</li>", part, re.S) for part in bracket.split("<h3>")[1:]]
            assert [len(r) for r in rounds] == [4, 2, 1], rounds
            assert "—" not in bracket
            assert sum(m.count(bye) for m in rounds[0]) == 3, rounds[0]
            assert all(versus in m for r in rounds for m in r)
            assert rounds[2] == [f"{later}{versus}{later}"], rounds[2]
    finally:
        pages.close()
        await client.close()


@pytest.mark.parametrize("credit", ["original", "substitute", "nobody"])
async def test_a_seat_handed_to_a_substitute_names_them_while_the_game_is_played(service, credit):
    """As ``/league round`` does ("Sub (for u10)"), whoever the result will count for: the page
    named the seat's league player only (the one who was dropped), or, once the substitute was
    credited, the substitute alone."""
    store = service.store
    lid, gid, session = await running_league(service)
    assert await store.leagues.drop_player(lid, 10) == [session.id]
    await store.noshows.add_substitute(lid, 30, "Sub")
    seat = session.seat_of(10).seat
    assert await store.noshows.hand_seat(lid, gid, session.id, seat, 10, Substitute(30, "Sub"), credit)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", lid)
        html = await (await client.get(f"/l/{token}")).text()
        (table,) = re.findall(r"<li>Table 1: (.*?)</li>", html)
        assert table.startswith("Sub (for u10)"), table
        assert "u20" in table and "being played" in table
        es = await (await client.get(f"/l/{token}?lang=es")).text()
        assert "Sub (en lugar de u10)" in es
    finally:
        pages.close()
        await client.close()


async def test_a_league_cancelled_as_its_server_removed_the_bot_keeps_what_was_played(leagues, service):
    """The bot removed from the league's server: the league is cancelled, the game being played
    ends without counting for anyone (not a loss by all, as an abandon in a running league), and
    the page says so; the game played before keeps its places."""
    league, names, games, _ = await round_under_way(leagues, service, "Nim gone", 6)
    played, playing, unopened = games
    being_played = {g.id: g.session_id for g in await service.store.leagues.league_games(league.id, 1)}

    ended = await service.seats.server_gone(league.guild_id)
    assert [s.id for s in ended] == [being_played[playing.id]] and ended[0].status == "abandoned"
    assert (await service.store.leagues.league(league.id)).status == "cancelled"
    seats = {s.user_id: s for g in await service.store.leagues.league_games(league.id, 1) for s in g.seats}
    assert [(seats[u].place, seats[u].points) for u in playing.players] == [(None, None)] * 2

    en, es = await league_html(service, league.id, "", "?lang=es")
    assert "Status: cancelled" in en
    tables = round_tables(en)
    assert "(1st)" in tables[played.table_no] and "(2nd)" in tables[played.table_no]
    assert "not finished (the league was cancelled)" in tables[playing.table_no]
    assert "(2nd)" not in tables[playing.table_no]
    assert "not opened" in tables[unopened.table_no]
    played_column = {row[1]: row[3] for row in cells(en, "standings-h")}
    assert [played_column[names[u]] for u in playing.players] == ["0", "0"]
    assert "sin terminar (se canceló la liga)" in es

    # and /league round and /league standings say the same in Discord (the bot invited again)
    cancelled = await service.store.leagues.league(league.id)
    rounds = Rounds(leagues, posts=None, scheduler=None)
    lines = (await rounds.round_text(cancelled)).splitlines()
    assert lines[0] == "**Nim gone**, round 1 of 2 (the league was cancelled)"
    table = next(x for x in lines if x.startswith(f"Table {playing.table_no}:"))
    assert table.endswith("not finished (the league was cancelled)"), table
    assert round_heading(cancelled) == "standings when the league was cancelled, after 1 round"
    assert "(se canceló la liga)" in await rounds.round_text(cancelled, language("es"))


async def test_a_rank_gained_or_lost_is_said_in_words_to_a_screen_reader(leagues, service, clock):
    """The standings' arrows (▲ 2, ▼ 1) are for the eye; a screen reader reads "up 2", "down 1"
    (Spanish "sube", "baja") instead of an arrow it may skip."""
    league = await new_league(
        leagues, name="Nim moves", game="nim", format="swiss", group_size=2, rounds=2, days=1, seed=3
    )
    names = {uid: f"n{uid}" for uid in range(701, 707)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    channels = counter(7000)
    for number in (1, 2):
        for session in await open_games(
            leagues, await leagues.open_round(league.id, number), names, channels
        ):
            await play_out(service, session)
        if number == 1:
            clock.advance(DAY)
            await leagues.round_deadline(league.id, 1)
    moves = [s.movement for s in await leagues.standings(await service.store.leagues.league(league.id))]
    assert any(m and m > 0 for m in moves) and any(m and m < 0 for m in moves), moves
    english, spanish = await league_html(service, league.id, "", "?lang=es")
    for html, up, down in ((english, "up", "down"), (spanish, "sube", "baja")):
        for m in moves:
            if m:
                arrow, word = ("▲", up) if m > 0 else ("▼", down)
                assert f'<span aria-hidden="true">{arrow} {abs(m)}</span>' in html
                assert f'<span class="spoken">{word} {abs(m)}</span>' in html
