"""The organiser's pairing controls without Discord, on both back ends: the tiebreak order, forbidden
pairs, fixed tables and the review step; and the tiebreaks on the standings text, picture and export."""

from __future__ import annotations

import csv
import io
import itertools

import pytest

from bot.league import controls, texts, tiebreaks
from bot.league.controls import Controls
from bot.league.service import LeagueError, LeagueService
from languages import language
from renderers import league as pictures
from renderers.translation import speaking, tr
from renderers.typeset import ink_height, text_width

GUILD = 9
PLAYERS = list(range(101, 109))


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def swiss(leagues, *, size=2, players=PLAYERS, **values):
    league = await leagues.create(
        guild_id=GUILD,
        channel_id=50,
        organiser_id=1,
        name="Llama open",
        game="pachakuna" if size == 2 else "guacamole",
        format="swiss",
        group_size=size,
        rounds=3,
        days=1,
        seed=5,
        **values,
    )
    for uid in players:
        await leagues.join(league, uid, f"p{uid}")
    league, _ = await leagues.start(league)
    return league


# ----------------------------------------------------------------------------- the order


def test_an_order_is_read_from_names_titles_or_short_names():
    assert controls.parse_order("Sonneborn-Berger, buchholz") == ("sonneborn_berger", "buchholz")
    assert controls.parse_order("SB; BH > H2H,rtg") == (
        "sonneborn_berger",
        "buchholz",
        "head_to_head",
        "rating",
    )
    assert controls.parse_order("median buchholz, most wins, cumulative score") == (
        "median_buchholz",
        "wins",
        "cumulative",
    )
    assert controls.parse_order(", ".join(tiebreaks.NAMES)) == tiebreaks.NAMES


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Buchholz, elo", '"elo" is not a tiebreak; choose from: BH (Buchholz), MBH (median Buchholz)'),
        ("BH, buchholz", "Buchholz is listed twice"),
        (" , ", "give the tiebreaks in order"),
    ],
)
def test_a_bad_order_is_refused_with_what_is_allowed(text, said):
    with pytest.raises(LeagueError, match=said.replace("(", r"\(").replace(")", r"\)")):
        controls.parse_order(text)


def test_a_spanish_refusal_lists_the_tiebreaks_in_spanish_and_those_names_are_taken():
    """The refusal in Spanish names the tiebreaks as the Spanish autocomplete and standings do (not
    "most wins" or "head to head"), and an order typed with those names is read."""
    es = language("es")
    with pytest.raises(LeagueError) as refused:
        controls.parse_order("Buchholz, elo")
    words = refused.value.in_words(es)
    assert words.startswith('"elo" no es un desempate; elige entre: BH (Buchholz), BHm (Buchholz mediano)')
    assert "ED (enfrentamiento directo), Gan (más victorias)" in words and words.endswith(
        " y Val (valoración)"
    )
    for english in ("median Buchholz", "head to head", "most wins", "cumulative score", "(rating)"):
        assert english not in words, words
    with pytest.raises(LeagueError) as twice:
        controls.parse_order("gan, most wins")
    assert twice.value.in_words(es) == "más victorias está dos veces"
    assert controls.parse_order("BHm, Gan, enfrentamiento directo, puntos acumulados, Val") == (
        "median_buchholz",
        "wins",
        "head_to_head",
        "cumulative",
        "rating",
    )


def test_the_autocomplete_adds_one_tiebreak_at_a_time():
    first = controls.complete_order("")
    assert [v for _, v in first] == list(tiebreaks.NAMES)
    offered = controls.complete_order("sonneborn_berger, buch")
    assert offered == [
        ("Sonneborn-Berger, Buchholz", "sonneborn_berger, buchholz"),
        ("Sonneborn-Berger, median Buchholz", "sonneborn_berger, median_buchholz"),
    ]
    spanish = controls.complete_order("ED", language("es"))
    assert spanish == [("enfrentamiento directo", "head_to_head")]
    for shown, value in controls.complete_order("", language("es")):
        assert len(shown) <= 100 and controls.parse_order(value)


@pytest.mark.parametrize("code", ["en", "es"])
def test_the_choice_that_completes_an_order_names_the_tiebreak_it_adds_within_discords_100(code):
    """Seven titles in full pass Discord's 100 characters in Spanish: those chosen go by their short
    names then, and the tiebreak the choice adds is named whole, never cut."""
    t = language(code)
    for last in tiebreaks.NAMES:
        typed = ", ".join(n for n in tiebreaks.NAMES if n != last) + ", "
        ((shown, value),) = controls.complete_order(typed, t)
        assert value.endswith(last) and len(shown) <= 100
        assert shown.endswith(t.gettext(controls.TITLE[last])), shown
    if code == "es":
        assert shown.startswith(f"{t.gettext(controls.SHORT[tiebreaks.NAMES[0]])}, "), shown


async def test_the_order_is_kept_per_league_and_ranks_the_standings(leagues, service):
    league = await swiss(leagues, tiebreak_order=("wins", "sonneborn_berger"))
    assert controls.order_of(league) == ("wins", "sonneborn_berger")
    other = await leagues.create(
        guild_id=GUILD,
        channel_id=50,
        organiser_id=1,
        name="Plain",
        game="pachakuna",
        format="swiss",
        group_size=2,
        rounds=2,
    )
    assert controls.order_of(other) == tiebreaks.DEFAULT_ORDER and not other.tiebreaks
    changed = await Controls(leagues).set_settings(league, order="Rtg, BH")
    assert controls.order_of(changed) == ("rating", "buchholz")
    assert (await service.store.leagues.league(league.id)).tiebreaks == '["rating", "buchholz"]'
    await service.store.leagues.end_league(league.id, None)
    with pytest.raises(LeagueError, match="is over; its settings no longer change"):
        await Controls(leagues).set_settings(changed, order="BH")


def test_the_same_games_rank_by_the_order_chosen():
    """A and B have a point each: A from a win and a loss, B from two draws; B is rated higher."""
    from bot.league.pairing import GameResult, standings

    games = [
        GameResult(1, {"A": 1, "C": 2}),
        GameResult(1, {"B": 1, "D": 1}),
        GameResult(2, {"D": 1, "A": 2}),
        GameResult(2, {"B": 1, "C": 1}),
    ]

    def ranked(order):
        rows = standings(list("ABCD"), games, ratings={"A": 1.0, "B": 5.0}, order=order)
        return [r.player for r in rows]

    assert ranked(("wins", "rating")) == ["D", "A", "B", "C"]
    assert ranked(("rating", "wins")) == ["D", "B", "A", "C"]


# ----------------------------------------------------------------------------- what is shown


def standing(player, values, rank=1):
    from bot.league.pairing import Row
    from bot.league.service import Standing

    row = Row(player, points=2.0, games=3, wins=2, rank=rank, tiebreaks=values, buchholz=values["buchholz"])
    return Standing(row, f"name{player}", None)


VALUES = {
    "buchholz": 4.0,
    "median_buchholz": 2.0,
    "sonneborn_berger": 3.5,
    "head_to_head": 0.5,
    "wins": 2.0,
    "cumulative": 6.0,
    "rating": 12.25,
}


async def test_the_standings_text_gives_each_tiebreak_in_order_and_explains_them(leagues):
    league = await swiss(leagues, tiebreak_order=("sonneborn_berger", "cumulative", "buchholz"))
    text = texts.standings_text(league, [standing("7", VALUES)], "**Llama open**", language("en"))
    assert text.splitlines()[1] == "1. name7: 2 points, 3 games played, 2 wins; SB 3.5, Cum 6, BH 4"
    assert text.splitlines()[-1] == (
        "Tiebreaks, in order: SB: Sonneborn-Berger, Cum: cumulative score, BH: Buchholz"
    )
    spanish = texts.standings_text(league, [standing("7", VALUES)], "**Llama open**", language("es"))
    assert "SB 3,5, Acu 6, BH 4" in spanish and "Acu: puntos acumulados" in spanish


def test_the_picture_has_a_column_per_tiebreak_and_stays_readable():
    every = tiebreaks.NAMES
    layout = pictures.columns([controls.SHORT[n] for n in every], wins=False, rating=False)
    headings = [h for h, _, _ in layout]
    assert headings == ["#", "Player", "Pts", "G", "BH", "MBH", "SB", "H2H", "Won", "Cum", "Rtg", "±"]
    width = sum(w for _, w, _ in layout) + 20
    for code in ("en", "es"):  # every heading fits its column, and the text reads at 400 px wide
        with speaking(code):
            wide = pictures.columns([controls.SHORT[n] for n in every], wins=False, rating=False)
            for heading, w, _ in wide[4:-1]:
                assert text_width(tr(heading), pictures.SIZE, True) <= w - 14, (code, heading)
        assert ink_height(pictures.SIZE) >= (sum(w for _, w, _ in wide) + 20) / 45, code
    kwargs = texts.picture_columns(every)
    lines = texts.picture_lines([standing("7", VALUES)], {7: 12.25}, every)
    assert lines[0].values == ("4", "2", "3.5", "0.5", "2", "6", "12.2")
    data = pictures.standings("A", "b", lines, **kwargs)
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    assert pictures.STANDINGS_WIDTH <= image.width <= width  # narrower where the names are short
    default = pictures.standings(
        "A",
        "b",
        texts.picture_lines([standing("7", VALUES)], {}),
        **texts.picture_columns(tiebreaks.DEFAULT_ORDER),
    )
    assert Image.open(io.BytesIO(default)).width == pictures.STANDINGS_WIDTH
    other = texts.picture_lines([standing("7", {**VALUES, "sonneborn_berger": 9.0})], {7: 12.25}, every)
    assert pictures.standings("A", "b", other, **kwargs) != data  # the values are drawn


def test_the_export_carries_the_tiebreaks_in_order():
    from bot.league.export import league_csv

    row = standing("7", VALUES).row
    text = league_csv([row], [], [], {7: "Ana"}, order=("wins", "sonneborn_berger"))
    header, line = list(csv.reader(io.StringIO(text)))[:2]
    assert header == [
        "rank",
        "player",
        "user_id",
        "points",
        "games",
        "wins",
        "byes",
        "most_wins",
        "sonneborn_berger",
        "rating",
        "no_shows",
        "dropped",
        "dropped_round",
        "games_not_played",
    ]
    assert line[-7:-4] == ["2", "3.5", "12.25"]
    default = league_csv([row], [], [], {7: "Ana"})
    assert next(csv.reader(io.StringIO(default)))[-7:-4] == ["buchholz", "head_to_head", "rating"]


# ----------------------------------------------------------------------------- forbidden and fixed


async def test_forbidden_pairs_are_stored_and_never_paired(leagues, service):
    league = await swiss(leagues)
    c = Controls(leagues)
    first, _ = await leagues.draw.pair(league, 1)
    a, b = first[0]
    assert await c.forbid(league, a, b, True) and not await c.forbid(league, b, a, True)
    assert await service.store.league_pairing.forbidden(league.id) == [tuple(sorted((a, b)))]
    groups, byes = await leagues.draw.pair(league, 1)
    assert not any({a, b} <= set(g) for g in groups) and not byes
    assert sorted(u for g in groups for u in g) == PLAYERS
    assert await c.forbid(league, a, b, False) and not await c.forbid(league, a, b, False)
    assert await service.store.league_pairing.forbidden(league.id) == []
    with pytest.raises(LeagueError, match="<@999> is not one"):
        await c.forbid(league, a, 999, True)
    with pytest.raises(LeagueError, match="name each player once"):
        await c.forbid(league, a, a, True)


async def test_a_fixed_table_is_kept_and_the_rest_paired_around_it(leagues, service):
    league = await swiss(leagues, size=3, players=list(range(101, 110)))
    c = Controls(leagues)
    assert await c.fix(league, [109, 101, 105]) == 1
    with pytest.raises(LeagueError, match="fixed table of round 1 already"):
        await c.fix(league, [102, 105, 103])
    with pytest.raises(LeagueError, match="seats 3 players; you named 2"):
        await c.fix(league, [102, 103])
    await c.forbid(league, 102, 103, True)
    with pytest.raises(LeagueError, match="are a forbidden pair"):
        await c.fix(league, [102, 103, 104])
    groups, byes = await leagues.draw.pair(league, 1)
    assert groups[0] == [109, 101, 105] and not byes
    assert sorted(u for g in groups for u in g) == list(range(101, 110))
    assert not any({102, 103} <= set(g) for g in groups)
    assert await c.unfix(league, 105) == [109, 101, 105]
    with pytest.raises(LeagueError, match="at no fixed table of round 1"):
        await c.unfix(league, 105)
    assert await service.store.league_pairing.fixed_tables(league.id, 1) == []


async def test_forbidden_and_fixed_are_for_swiss_leagues(leagues):
    cup = await leagues.create(
        guild_id=GUILD,
        channel_id=50,
        organiser_id=1,
        name="Cup",
        game="pachakuna",
        format="elimination",
        group_size=2,
    )
    with pytest.raises(LeagueError, match="apply to Swiss rounds; Cup is not a Swiss league"):
        await Controls(leagues).forbid(cup, 1, 2, True)
    with pytest.raises(LeagueError, match="only a Swiss league's rounds can be reviewed"):
        await Controls(leagues).set_settings(cup, review=True)


# ----------------------------------------------------------------------------- the review step


async def test_a_reviewed_round_is_swapped_then_published_once(leagues, service):
    store = service.store
    league = await swiss(leagues, players=list(range(101, 106)), review=True)
    assert league.review
    c = Controls(leagues)
    with pytest.raises(LeagueError, match="no round of Llama open is waiting for review"):
        await c.draft(league)
    draft = await c.draft_round(league, 1)
    assert draft is not None and len(draft.groups) == 2 and len(draft.byes) == 1
    assert (await store.leagues.league(league.id)).current_round == 0  # not opened
    assert await store.leagues.league_games(league.id) == []
    with pytest.raises(LeagueError, match="publish it with /league organiser review first"):
        await c.set_settings(league, review=False)
    with pytest.raises(LeagueError, match="waits for review; swap players there instead"):
        await c.fix(league, draft.groups[0])
    (a, b), (x, y) = draft.groups
    with pytest.raises(LeagueError, match="pick two players at different tables"):
        await c.swap(league, a, b)
    with pytest.raises(LeagueError, match="is not in round 1's tables or byes"):
        await c.swap(league, a, 999)
    swapped = await c.swap(league, a, x)
    assert swapped.groups == [[x, b], [a, y]]
    sitting = draft.byes[0]
    again = await c.swap(league, b, sitting)  # a player with a bye takes b's seat
    assert again.groups == [[x, sitting], [a, y]] and again.byes == [b]
    text = await c.tables_text(league, again, language("en"))
    assert f"Table 1: p{x}, p{sitting}" in text and f"Bye: p{b}" in text
    opened = await c.publish(league)
    assert [g.players for g in opened.games] == [[x, sitting], [a, y]] and opened.byes == [b]
    assert await store.league_pairing.draft(league.id, 1) is None
    fresh = await store.leagues.league(league.id)
    assert fresh.current_round == 1
    with pytest.raises(LeagueError, match="no round of Llama open is waiting for review"):
        await c.publish(fresh)


async def test_pairs_and_tables_store_on_both_back_ends(service):
    """The four statements' edge cases, straight on the store: a second fixed table that names a
    player already seated is refused whole; a round that has opened takes no fixed table and no
    draft; a draft is replaced, not added."""
    store = service.store
    leagues = LeagueService(store, service)
    league = await swiss(leagues, players=[1, 2, 3, 4])
    s = store.league_pairing
    assert await s.fix_table(league.id, 2, [1, 2]) and not await s.fix_table(league.id, 2, [3, 1])
    assert await s.fixed_tables(league.id, 2) == [[1, 2]]
    assert await s.fix_table(league.id, 2, [4, 3])
    assert await s.fixed_tables(league.id, 2) == [[1, 2], [4, 3]]
    assert await s.save_draft(league.id, 1, [[1, 2]], [3])
    assert await s.save_draft(league.id, 1, [[2, 1]], [])
    assert await s.draft(league.id, 1) == ([[2, 1]], [])
    assert not await s.save_draft(league.id, 3, [[1, 2]], [])  # not the next round
    groups = [[1, 2], [3, 4]]
    await store.leagues.open_round(league.id, 1, groups, [], 1e10)
    assert not await s.fix_table(league.id, 1, [3, 4])
    assert not await s.save_draft(league.id, 1, groups, [])
    pairs = list(itertools.combinations([1, 2, 3], 2))
    for a, b in pairs:
        assert await s.set_forbidden(league.id, b, a, True)
    assert await s.forbidden(league.id) == pairs


# ----------------------------------------------------------------------------- seats


async def test_a_swiss_game_seats_players_in_the_pairings_order(leagues, service):
    """The pairing decides who moves first; the lobby used to draw the seats again from the
    game's seed, so a league's seat balance never reached its games."""
    league = await swiss(leagues, size=3, players=list(range(101, 110)))
    opened = await leagues.open_round(league.id, 1)
    assert opened is not None
    for i, game in enumerate(opened.games):
        session = await leagues.open_game(opened.league, game, 7000 + i, {})
        assert [s.user_id for s in sorted(session.seats, key=lambda s: s.seat)] == game.players


async def test_round_robin_seats_are_still_drawn(leagues, service):
    """A round robin lists each pair in a fixed order (the circle method keeps one player first
    every round), so its games draw the seats as before."""
    league = await leagues.create(
        guild_id=GUILD,
        channel_id=50,
        organiser_id=1,
        name="Robin",
        game="pachakuna",
        format="round_robin",
        group_size=2,
        seed=5,
    )
    for uid in range(101, 109):
        await leagues.join(league, uid, f"p{uid}")
    league, _ = await leagues.start(league)
    firsts = []
    for number in (1, 2, 3):
        opened = await leagues.open_round(league.id, number)
        for i, game in enumerate(opened.games):
            session = await leagues.open_game(opened.league, game, 8000 + 10 * number + i, {})
            seated = [s.user_id for s in sorted(session.seats, key=lambda s: s.seat)]
            firsts.append(seated == game.players)
            await service.store.leagues.record_forfeit(game.id)
        await service.store.leagues.close_round(league.id, number)
    assert True in firsts and False in firsts


async def test_the_dutch_pairing_numbers_are_the_seeds_fixed_at_the_start(leagues, monkeypatch):
    """Ratings move during a season (every rated game changes them); FIDE's pairing numbers do
    not.  Here the ratings change after the start so that, read afresh, they would pair 101 with
    102 in the first round; the seeds (sign-up order, as nobody had a rating) pair 101 with 105."""
    league = await swiss(leagues)
    moved = {uid: 100.0 - i for i, uid in enumerate([101, 103, 105, 107, 102, 104, 106, 108])}

    async def ratings_now(_league):
        return moved

    monkeypatch.setattr(leagues.draw, "rating_map", ratings_now)
    groups, _ = await leagues.draw.pair(league, 1)
    assert {frozenset(g) for g in groups} == {
        frozenset(p) for p in ((101, 105), (102, 106), (103, 107), (104, 108))
    }


async def test_a_fixed_table_and_a_bye_or_pause_for_its_round_exclude_each_other(leagues, service):
    """A table fixed with a player who will not play its round would be dropped whole when the
    round is paired, the organiser never told: either way round, the second is refused, saying
    why, and nothing changes."""
    from bot.league.presence import Attendance

    league = await swiss(leagues, size=3, players=list(range(101, 110)))
    c, desk = Controls(leagues), Attendance(leagues)
    await desk.ask_bye(league, 102, 1)
    await desk.pause(league, 103, 1)
    with pytest.raises(LeagueError, match=r"<@102> asked for a bye in round 1, so is not paired in it"):
        await c.fix(league, [101, 102, 104])
    with pytest.raises(LeagueError, match=r"<@103> paused round 1, so is not paired in it"):
        await c.fix(league, [101, 104, 103])
    assert await service.store.league_pairing.fixed_tables(league.id, 1) == []
    assert await c.fix(league, [109, 101, 105]) == 1
    with pytest.raises(LeagueError, match=r"you are at a table the organiser fixed for round 1"):
        await desk.ask_bye(league, 105, 1)
    with pytest.raises(LeagueError, match=r"you are at a table the organiser fixed for round 1"):
        await desk.pause(league, 109, 2)
    assert await service.store.attendance.requests(league.id, 105) == {}
    assert await service.store.attendance.requests(league.id, 109) == {}
    out = {o.user_id for o in await leagues.draw.sit_outs(league, 1)}
    groups, byes = await leagues.draw.pair(league, 1, leave_out=out)
    assert [109, 101, 105] in groups


async def test_a_pair_at_a_fixed_table_is_not_forbidden_behind_it(leagues, service):
    """A fixed table may not hold a forbidden pair: forbidding two players the organiser seated
    together for the next round is refused (undo the table first), and nothing changes."""
    league = await swiss(leagues, size=3, players=list(range(101, 110)))
    c = Controls(leagues)
    assert await c.fix(league, [109, 101, 105]) == 1
    with pytest.raises(LeagueError, match=r"<@101> and <@105> sit at a table you fixed for round 1"):
        await c.forbid(league, 101, 105, True)
    assert await service.store.league_pairing.forbidden(league.id) == []
    assert await c.forbid(league, 101, 102, True)  # not at one fixed table: forbidden
    await c.unfix(league, 105)
    assert await c.forbid(league, 105, 101, True)


def test_the_numbers_columns_give_the_names_the_room_they_do_not_need():
    """A name of 15 letters was cut ("Gabriela Quis…" with the default tiebreaks, "Gabriela …"
    with all seven) while the rating's column stood 150 px wide for "12.5": each number's column
    is now as wide as its widest cell and heading, and the names get the rest."""
    from renderers.typeset import clip

    names = ["Gabriela Quispe", "Ana", "Sofía Huamán", "Wilfredo Mamani Condori Apaza"]
    for order in (tiebreaks.DEFAULT_ORDER, tiebreaks.NAMES):
        lines = [
            pictures.StandingLine(i + 1, name, 6 - i, 5, 3, 4.5, 1512.5, 0, values=("12.5",) * len(order))
            for i, name in enumerate(names)
        ]
        layout = pictures.columns(**texts.picture_columns(order))
        fitted = pictures.fitted(layout, pictures.table(lines, layout))
        room = next(w for h, w, _ in fitted if h == "Player") - 14
        shown = [clip(pictures.shown_name(line), room, pictures.SIZE, line.rank == 1) for line in lines]
        assert shown[:3] == names[:3], (order, shown)
        assert shown[3].endswith("…")  # longer than the picture has room for: cut, not overlapping
        assert sum(w for _, w, _ in fitted) <= max(
            pictures.STANDINGS_WIDTH - 20, sum(w for _, w, _ in layout)
        )
