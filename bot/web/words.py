"""The web pages' own words, in the reader's language.

Every text a template shows is here (so that ``python -m bot.i18n extract`` finds it) and is
handed to the templates translated: a template holds markup, never English.
"""

from __future__ import annotations

from collections.abc import Mapping

from languages import N_, Language

WORDS: Mapping[str, str] = {
    "skip": N_("Skip to the board"),
    "skip_main": N_("Skip to the content"),
    "game_title": N_("{game}, game #{number}"),
    "board": N_("The board"),
    "board_after": N_("After move {move} of {shown}"),
    "board_start": N_("Before the first move"),
    "steps": N_("Moves"),
    "first": N_("First"),
    "back": N_("Back"),
    "forward": N_("Forward"),
    "last": N_("Last"),
    "move_slider": N_("Move"),
    "go": N_("Show"),
    "keys_help": N_(
        "Keys, on the board or the move list: ← and → step through the moves, Home and End go to "
        "the start and the end."
    ),
    "full_size": N_("Tap or click the board, or press Enter on it, to open it at full size."),
    "move_list": N_("The moves"),
    "no_moves": N_("No moves yet."),
    "start": N_("The start"),
    "players": N_("Players"),
    "player": N_("Player"),
    "place": N_("Place"),
    "score": N_("Score"),
    "computer": N_("computer"),
    "by_computer": N_("played by the computer"),
    "taken_back": N_("taken back later"),
    "resigned": N_("resigned"),
    "resigned_computer": N_("resigned; the computer plays on"),
    "ran_out": N_("time ran out"),
    "result": N_("Result"),
    "chart": N_("Scores over the game"),
    "in_words": N_("The board in words"),
    "live": N_("This game is being played: this page follows it."),
    "lobby": N_("This game has not started yet: its page shows the board once it has."),
    "damaged": N_("This game cannot be shown: the table cannot read it."),
    "language": N_("Language"),
    "footer": N_("Pukllay: a read-only page, for whoever holds its link."),
    "not_found": N_("Nothing here"),
    "not_found_text": N_("This link is wrong, or its page is no longer shared."),
    "bad_request": N_("That address is not right"),
    "back_to_game": N_("The game at its latest move"),
    "not_allowed": N_("These pages only read"),
    "not_allowed_text": N_("Open them with GET (or HEAD): they take nothing sent to them."),
    "unavailable": N_("Not available now"),
    "unavailable_text": N_("The pages cannot be read now: try again in a minute."),
    "too_many": N_("Too many requests"),
    "too_many_text": N_("Too many requests from your address: wait a minute, then try again."),
    "league_title": N_("League: {name}"),
    "standings": N_("Standings"),
    "no_players": N_("Nobody has signed up yet."),
    "points": N_("Points"),
    "played": N_("Played"),
    "not_played": N_("Not played"),
    "rounds": N_("Rounds"),
    "round": N_("Round {number}"),
    "table": N_("Table {number}"),
    "game_link": N_("game #{number}"),
    "bracket": N_("Bracket"),
    "ratings": N_("Ratings"),
    "rating": N_("Rating"),
    "games": N_("Games"),
    "game": N_("Game"),
    "profile_title": N_("{name}'s games"),
    "finished_games": N_("Finished games"),
    "no_games": N_("No finished games yet."),
    "no_ratings": N_("No rated games yet: only games between two or more people are rated."),
    "format": N_("Format"),
    "champion": N_("Champion: {name}"),
    "wins": N_("Wins"),
    "byes": N_("Byes"),
    "movement": N_("Since last round"),
    "moved_up": N_("up {n}"),
    "moved_down": N_("down {n}"),
    "season_ratings": N_("This season's ratings"),
    "date": N_("Date"),
    "status": N_("Status"),
}


def words(t: Language) -> dict[str, str]:
    """Every word of the pages in ``t`` (placeholders left for the templates to fill)."""
    return {key: t.catalogue.gettext(text) for key, text in WORDS.items()}
