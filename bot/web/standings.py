"""A league's web page, as data: the standings with each tiebreak's value in the league's order (as
``/league standings`` and its picture show them), each round's tables with
links to their games' pages, the byes, the bracket (single elimination, or a Swiss league's final
stage) and the season's rating table.  Read through :class:`bot.league.service.LeagueService`
(the same standings and bracket ``/league standings`` and ``/league bracket`` show).

Only finished places and public names are shown; a game's link is its own capability link (a
league's page shares its games, which the league's channel shows anyway).  No Discord, no SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import engines
from bot.league import attendance, controls, tiebreaks
from bot.league.noshows import first_holder
from bot.league.presence import attendance_lines
from bot.league.service import LeagueService
from bot.league.texts import UNPLAYED_LEGEND, bye_line, byes_legend, options_line
from bot.ratings import shown
from bot.sessions import SessionService
from bot.storage import Store
from bot.storage.leagues import LeagueGame, LeagueRow
from bot.texts import number, ordinal
from languages import N_, Language
from languages.bidi import isolated

STATUS = {
    "signup": N_("sign-ups open"),
    "running": N_("running"),
    "finished": N_("ended"),
    "cancelled": N_("cancelled"),
}
FORMATS = {"swiss": N_("Swiss"), "round_robin": N_("round robin"), "elimination": N_("single elimination")}
SEASON_TOP = 100  # rows of the season's rating table shown
SEASON_READ = 100_000
"""The season's rating rows read to count those left out (one a player: the standings list them
all anyway)."""


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str  # with "(dropped)" and the no-shows, as the standings picture's name cell
    points: str
    games: int
    wins: int
    byes: int  # the pairing's byes (rounds sat out for attendance are listed with their round)
    unplayed: int  # games scored but never played (not among ``games``, the games played)
    tiebreaks: list[str]  # each value, in the league's order
    rating: str
    movement: int | None


@dataclass(frozen=True)
class TableGame:
    number: int
    players: list[tuple[str, str]]  # (name, its note: "1st", "2nd, forfeited", or "")
    link: str | None
    session: int | None
    status: str
    state: str = ""  # "being played", "not opened", "not played (forfeited)"; "" once played


def table_game(
    game: LeagueGame,
    players: dict[int, str],
    link: str | None,
    t: Language,
    playing: dict[int, str] | None = None,
    cancelled: bool = False,
) -> TableGame:
    """One table of a round as ``/league round`` tells it: each player with their place once the
    game is over (and "forfeited" for a seat that forfeited it), who plays each seat while it is
    played (``playing``: a seat handed to a substitute), and how far the game is (``cancelled``:
    the league's, whose games still played when it was cancelled ended unfinished)."""
    seats = sorted(game.seats, key=lambda s: s.position)
    finished = game.status == "finished"
    named = []
    for s in seats:
        notes = [ordinal(s.place, t)] if finished and s.place is not None else []
        if s.forfeit:
            notes.append(t.gettext("forfeited"))
        name = (playing or {}).get(s.user_id) or players.get(s.user_id, "?")
        named.append((name, ", ".join(notes)))
    if finished:
        state = "" if game.session_id is not None else t.gettext("not played (forfeited)")
    elif game.session_id is not None and cancelled:
        state = t.gettext("not finished (the league was cancelled)")
    elif game.session_id is not None:
        state = t.gettext("being played")
    else:
        state = t.gettext("not opened")
    return TableGame(game.table_no, named, link, game.session_id, game.status, state)


@dataclass
class RoundView:
    number: int
    tables: list[TableGame] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)  # who sat the round out, a line per reason


@dataclass(frozen=True)
class MatchView:
    a: str
    b: str
    winner: str
    text: str = ""  # "Cusi v bye", "Cusi v to be decided", as the bracket's post writes a match


@dataclass(frozen=True)
class RatingView:
    rank: int
    name: str
    rating: str
    games: int
    wins: int


@dataclass
class LeaguePage:
    name: str
    game: str
    format: str
    status: str
    standings: list[StandingRow] = field(default_factory=list)
    tiebreaks: list[str] = field(default_factory=list)  # the columns' headings, in the league's order
    wins: bool = True  # a column of wins (when "most wins" is not a tiebreak of the order)
    rating: bool = True  # a column of ratings (when the rating is not a tiebreak of the order)
    unplayed: bool = False  # a column of games not played (when someone has one)
    legend: str = ""  # the order, with the short names ``/league standings`` uses
    rounds: list[RoundView] = field(default_factory=list)
    bracket: list[list[MatchView]] = field(default_factory=list)
    champion: str | None = None
    ratings: list[RatingView] = field(default_factory=list)
    ratings_cut: str = ""  # "Only the top 100 are listed: 3 more players are not.", when cut
    options: str = ""  # "Options: master mode": what the sign-up message says of its games


def heading(title: str) -> str:
    """A tiebreak's name as a column's heading: ``head to head`` heads ``Head to head``."""
    return title[:1].upper() + title[1:]


def name_cell(name: str, dropped: bool, no_shows: int, t: Language) -> str:
    """A player's name as the standings picture writes it: marked when dropped, with their
    no-shows when they have any."""
    if no_shows and dropped:
        return t.ngettext(
            "{name} (dropped, {n} no-show)", "{name} (dropped, {n} no-shows)", no_shows, name=name
        )
    if no_shows:
        return t.ngettext("{name} ({n} no-show)", "{name} ({n} no-shows)", no_shows, name=name)
    return t.gettext("{name} (dropped)", name=name) if dropped else name


def rating_text(rating: float | None, t: Language) -> str:
    """A rating as the standings picture draws it: one decimal, a dash for none yet (a player
    with no rated game of the league's game has no rating, which is not 0)."""
    return "–" if rating is None else t.number(rating, 1)


def sat_out_lines(
    league: LeagueRow, round_no: int, found: dict[str, list[tuple[str, float]]], t: Language
) -> list[str]:
    """Who sat round ``round_no`` out, a line per reason, in the words of the round's post in
    Discord: the pairing's bye (the league's bye points), then those left out for attendance
    (a missed check-in scores nothing; a bye asked for, a pause or a late sign-up what it got)."""
    lines = []
    if found.get(attendance.PAIRING):
        lines.append(bye_line(league, [name for name, _ in found[attendance.PAIRING]], t, each=True))
    return lines + attendance_lines(league, round_no, found, t)


class Leagues:
    """Builds league pages; ``game_link`` gives a game's page address (None: not shared)."""

    def __init__(self, store: Store, sessions: SessionService):
        self.store = store
        self.service = LeagueService(store, sessions)

    async def page(
        self, league_id: int, t: Language, game_links: Callable[[list[int]], Awaitable[dict[int, str]]]
    ) -> LeaguePage | None:
        league = await self.store.leagues.league(league_id)
        if league is None:
            return None
        try:
            title = engines.get(league.game).title
        except KeyError:
            title = league.game
        page = LeaguePage(
            isolated(league.name),
            title,
            t.gettext(FORMATS.get(league.format, league.format)),
            t.gettext(STATUS.get(league.status, league.status)),
        )
        page.options = options_line(league, t)
        # every name as the page writes it (isolated), in whatever line it stands
        players = {p.user_id: isolated(p.name) for p in await self.store.leagues.league_players(league.id)}
        rated = await self.service.rating_map(league)
        order = tiebreaks.stored_order(league.tiebreaks)
        page.tiebreaks = [heading(t.gettext(controls.TITLE[name])) for name in order]
        page.wins = tiebreaks.WINS not in order
        page.rating = tiebreaks.RATING not in order
        page.legend = t.gettext("Tiebreaks, in order: {legend}", legend=controls.legend(order, t))
        table = await self.service.standings(league)
        page.unplayed = any(s.row.unplayed for s in table)
        if page.unplayed:
            page.legend += " " + t.gettext(UNPLAYED_LEGEND)
        if any(s.byes for s in table):
            page.legend += " " + byes_legend(league, t)
        for s in table:
            r = s.row
            rating = rating_text(rated.get(int(r.player)), t)
            page.standings.append(
                StandingRow(
                    r.rank,
                    name_cell(isolated(s.name), s.dropped, s.no_shows, t),
                    number(r.points, t),
                    r.games,
                    r.wins,
                    s.byes,
                    r.unplayed,
                    [
                        rating if name == tiebreaks.RATING else number(r.tiebreaks.get(name, 0.0), t)
                        for name in order
                    ],
                    rating,
                    s.movement,
                )
            )
        rounds: dict[int, RoundView] = {}
        games = await self.store.leagues.league_games(league.id)
        links = await game_links([g.session_id for g in games if g.session_id is not None])
        for g in games:
            view = rounds.setdefault(g.round, RoundView(g.round))
            link = links.get(g.session_id) if g.session_id is not None else None
            playing = await self.playing_now(g, players, t) if g.status == "playing" else None
            view.tables.append(table_game(g, players, link, t, playing, league.status == "cancelled"))
        sat_out: dict[int, dict[str, list[tuple[str, float]]]] = {}
        kinds = await self.store.attendance.bye_kinds(league.id)
        for round_no, user_id, points in await self.store.leagues.league_byes(league.id):
            kind = kinds.get((round_no, user_id), attendance.PAIRING)
            sat_out.setdefault(round_no, {}).setdefault(kind, []).append((players.get(user_id, "?"), points))
        for round_no, found in sat_out.items():
            rounds.setdefault(round_no, RoundView(round_no)).byes = sat_out_lines(league, round_no, found, t)
        page.rounds = [rounds[n] for n in sorted(rounds)]
        await self.bracket(league, page, players, t)
        if page.champion is None and league.champion_id is not None:  # the season's end post's
            page.champion = players.get(league.champion_id)
        board = await self.store.ratings.season_leaderboard(league.id, limit=SEASON_READ)
        page.ratings = [
            RatingView(
                i + 1,
                isolated(r.name),
                rating_text(shown(r.mu, r.sigma), t) if r.mu is not None and r.sigma is not None else "",
                r.games,
                r.wins,
            )
            for i, r in enumerate(board[:SEASON_TOP])
        ]
        if len(board) > SEASON_TOP:
            page.ratings_cut = t.ngettext(
                "Only the top {top} are listed: {n} more player is not.",
                "Only the top {top} are listed: {n} more players are not.",
                len(board) - SEASON_TOP,
                top=SEASON_TOP,
            )
        return page

    async def playing_now(self, game: LeagueGame, players: dict[int, str], t: Language) -> dict[int, str]:
        """Each league seat of a game being played whose seat a substitute holds now, named as
        ``/league round`` names it: "Sub (for Cusi)", Cusi being the seat's first holder."""
        handed = await self.store.noshows.substitutions(game.id)  # (original, substitute, credit)
        if not handed or game.session_id is None:
            return {}
        took = {original: sub for original, sub, _ in handed}
        gave = {sub: original for original, sub in took.items()}
        session = await self.service.sessions.core.get(game.session_id)
        seated = (
            {s.user_id: isolated(s.name) for s in session.seats if s.user_id is not None} if session else {}
        )
        out = {}
        for u in game.players:
            first = first_holder(gave, u)  # the league seat may be the substitute's (credited)
            now, seen = first, {first}
            while now in took and took[now] not in seen:  # through every handover, once each
                now = took[now]
                seen.add(now)
            if now != first:
                out[u] = t.gettext(
                    "{substitute} (for {original})",
                    substitute=seated.get(now) or players.get(now, "?"),
                    original=players.get(first, "?"),
                )
        return out

    async def bracket(
        self, league: LeagueRow, page: LeaguePage, players: dict[int, str], t: Language
    ) -> None:
        if league.format != "elimination" and not league.final_round:
            return
        seeds = await self.service.seeds(league)
        if not seeds:
            return
        b = await self.service.bracket(league, seeds)

        def name(player: str | None) -> str:
            if player is None:
                return ""
            return players.get(int(player), player) if player.isdigit() else isolated(player)

        def seat(player: str | None, first_round: bool) -> str:
            """A match's side: its player, else a bye (first round), else one not known yet."""
            if player is not None:
                return name(player)
            return t.gettext("bye") if first_round else t.gettext("to be decided")

        page.bracket = []
        for r, matches in enumerate(b.rounds):
            views = []
            for m in matches:
                a, b_ = seat(m.a, r == 0), seat(m.b, r == 0)
                views.append(MatchView(a, b_, name(m.winner), t.gettext("{a} v {b}", a=a, b=b_)))
            page.bracket.append(views)
        page.champion = name(b.champion) or None
