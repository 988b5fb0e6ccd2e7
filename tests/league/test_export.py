"""The league CSV export."""

from __future__ import annotations

import csv
import io


def results_of(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """The export's second table: its header, and each row by column name."""
    lines = list(csv.reader(io.StringIO(text)))
    header = lines[lines.index([]) + 1]
    return header, [dict(zip(header, r, strict=True)) for r in lines[lines.index([]) + 2 :]]


def test_names_that_look_like_formulas_stay_text_in_the_csv():
    from bot.league.export import cell, league_csv
    from bot.league.pairing import Row

    assert cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and cell("Ana") == "Ana" and cell("") == ""
    text = league_csv([Row("5", points=1.0, rank=1)], [], [(1, 5, 1.0)], {5: "+cmd"})
    assert "'+cmd" in text and ",+cmd" not in text


def test_each_sit_out_has_its_kind_and_points_and_dropped_players_are_marked():
    import csv
    import io

    from bot.league.export import league_csv
    from bot.league.pairing import Row

    rows = [Row("5", points=1.5, rank=1), Row("6", points=0.0, rank=2)]
    byes = [(1, 5, 1.0), (2, 5, 0.5), (2, 6, 0.0), (3, 6, 0.0), (4, 6, 0.0)]
    kinds = {(1, 5): "pairing", (2, 5): "requested", (2, 6): "absent", (3, 6): "pause", (4, 6): "late"}
    text = league_csv(rows, [], byes, {5: "Ana", 6: "Bo"}, {6: 2}, dropped={5: None, 6: 4}, kinds=kinds)
    lines = list(csv.reader(io.StringIO(text)))
    blank = lines.index([])
    header, standings = lines[0], [dict(zip(lines[0], r, strict=True)) for r in lines[1:blank]]
    assert header[-4:] == ["no_shows", "dropped", "dropped_round", "games_not_played"]
    assert [(r["player"], r["no_shows"], r["dropped"], r["dropped_round"]) for r in standings] == [
        ("Ana", "0", "", ""),
        ("Bo", "2", "yes", "4"),
    ]
    # the byes column counts the pairing's byes, as the standings do: Bo's sit-outs were attendance
    assert [(r["player"], r["byes"]) for r in standings] == [("Ana", "1"), ("Bo", "0")]
    header, results = results_of(text)
    assert header[:7] == ["round", "table", "player", "user_id", "place", "points", "forfeit"]
    assert [(r["round"], r["table"], r["player"], r["points"], r["bye_kind"]) for r in results] == [
        ("1", "bye", "Ana", "1", "pairing"),
        ("2", "bye", "Ana", "0.5", "requested"),
        ("2", "bye", "Bo", "0", "absent"),
        ("3", "bye", "Bo", "0", "pause"),
        ("4", "bye", "Bo", "0", "late"),
    ]


def test_a_player_without_a_rating_has_an_empty_rating_cell_not_zero():
    """The standings show a dash for a player with no rating in the league's game; the export's
    rating column (a tiebreak of the default order, and the extra column of another order) leaves
    their cell empty rather than writing a rating of 0."""
    import csv
    import io

    from bot.league import tiebreaks
    from bot.league.export import league_csv
    from bot.league.pairing import Row

    rows = [Row("5", points=1.0, rank=1, rating=1512.5), Row("6", points=0.0, rank=2, rating=0.0)]
    for order in (tiebreaks.DEFAULT_ORDER, (tiebreaks.BUCHHOLZ,)):
        text = league_csv(rows, [], [], {5: "Ana", 6: "Bo"}, order=order, rated={5})
        lines = list(csv.reader(io.StringIO(text)))
        table = [dict(zip(lines[0], r, strict=True)) for r in lines[1 : lines.index([])]]
        assert [(r["player"], r["rating"]) for r in table] == [("Ana", "1512.5"), ("Bo", "")], order
    every = league_csv(rows, [], [], {5: "Ana", 6: "Bo"})  # no ratings known: as computed
    assert list(csv.reader(io.StringIO(every)))[2][-4] == "0"


def test_a_game_never_played_is_marked_so_in_the_results():
    """Two finished tables of round 1: table 1 played to its end, table 2 never opened (a forfeit
    nobody played: Bo, dropped before it opened, ranks last, Cy first).  Their rows were alike but
    for the forfeit cell of the loser's; the ``never_played`` column tells them apart, for the
    winner's row too.  A sit-out's row leaves it empty."""
    from bot.league.export import league_csv
    from bot.league.pairing import Row
    from bot.storage.leagues import LeagueGame, LeagueSeat

    played = LeagueGame(
        1, 1, 1, 41, "finished", [LeagueSeat(5, 0, 1, 1.0, False), LeagueSeat(8, 1, 2, 0.0, False)]
    )
    never = LeagueGame(
        2, 1, 2, None, "finished", [LeagueSeat(6, 0, 2, 0.0, True), LeagueSeat(7, 1, 1, 1.0, False)]
    )
    assert never.never_played and not played.never_played
    rows = [Row(str(u), rank=i) for i, u in enumerate((5, 7, 6, 8, 9), 1)]
    names = {5: "Ana", 6: "Bo", 7: "Cy", 8: "Di", 9: "Ed"}
    header, results = results_of(league_csv(rows, [played, never], [(1, 9, 1.0)], names))
    assert header[-1] == "never_played"
    marked = {(r["table"], r["player"]): (r["place"], r["forfeit"], r["never_played"]) for r in results}
    assert marked == {
        ("1", "Ana"): ("1", "", ""),
        ("1", "Di"): ("2", "", ""),
        ("2", "Cy"): ("1", "", "yes"),
        ("2", "Bo"): ("2", "yes", "yes"),
        ("bye", "Ed"): ("", "", ""),
    }


def test_points_and_tiebreaks_are_written_whole_never_rounded_nor_in_an_exponent():
    """A league scoring 1000, 500 and 0 a place over 30 rounds: Buchholz 1,350,000 was written
    ``1.35e+06`` (six figures), which a spreadsheet reads rounded; the values are written whole, and
    fractions to ten decimals at most."""
    from bot.league.export import league_csv, written
    from bot.league.pairing import GameResult, standings

    rows = standings(
        ["1", "2", "3"], [GameResult(r, {"1": 1, "2": 2, "3": 3}) for r in range(1, 31)], table=[1000, 500, 0]
    )
    lines = list(csv.reader(io.StringIO(league_csv(rows, [], [], {1: "a", 2: "b", 3: "c"}))))
    last = dict(zip(lines[0], lines[3], strict=True))
    assert last["buchholz"] == "1350000" and lines[1][3] == "30000", (last, lines[1])
    assert [written(v) for v in (123456.5, 1.9000000000000001, 1 / 3, 2.0, 0.0)] == [
        "123456.5",
        "1.9",
        "0.3333333333",
        "2",
        "0",
    ]
