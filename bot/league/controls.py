"""What an organiser decides about a Swiss league's pairing and ranking, without Discord.

- **The tiebreak order.**  After league points, the standings rank by the tiebreaks the organiser
  picked, in that order, from :data:`bot.league.tiebreaks.NAMES`; written as a comma-separated
  list of names (``sonneborn_berger, buchholz``), their titles (``Sonneborn-Berger``) or their
  short names (``SB, BH``).  Each tiebreak's short name heads its column in the standings picture,
  its text and the export.
- **Forbidden pairs.**  Two players the organiser forbids are never seated at one table in a Swiss
  round (the pairing treats them as having met; :func:`bot.league.pairing.swiss_round`).
- **Fixed tables.**  The organiser may seat a table of the next round by hand (in seat order);
  the rest of the field is paired around it.
- **The review step.**  With review on, a Swiss round is paired when it is due but not opened:
  the organiser sees its tables privately, may swap two players between tables (or with a player
  who has a bye), and publishes it; only then are the games opened and the players told, and the
  round's time starts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.league import attendance, tiebreaks
from bot.league.names import listed, shown
from bot.league.rounds import table_sizes
from bot.league.service import LeagueError, LeagueService, OpenedRound
from bot.ratings import shown_or_start
from bot.storage import Job
from bot.storage.leagues import LeagueRow
from engines.core import Said, echo, listing, said
from languages import ENGLISH, N_, Language, available, language

# Each tiebreak's short name (a column heading) and title, as messages (translated where shown).
SHORT = {
    tiebreaks.BUCHHOLZ: N_("BH"),
    tiebreaks.MEDIAN_BUCHHOLZ: N_("MBH"),
    tiebreaks.SONNEBORN_BERGER: N_("SB"),
    tiebreaks.HEAD_TO_HEAD: N_("H2H"),
    tiebreaks.WINS: N_("Won"),
    tiebreaks.CUMULATIVE: N_("Cum"),
    tiebreaks.RATING: N_("Rtg"),
}
TITLE = {
    tiebreaks.BUCHHOLZ: N_("Buchholz"),
    tiebreaks.MEDIAN_BUCHHOLZ: N_("median Buchholz"),
    tiebreaks.SONNEBORN_BERGER: N_("Sonneborn-Berger"),
    tiebreaks.HEAD_TO_HEAD: N_("head to head"),
    tiebreaks.WINS: N_("most wins"),
    tiebreaks.CUMULATIVE: N_("cumulative score"),
    tiebreaks.RATING: N_("rating"),
}


def key(text: str) -> str:
    return re.sub(r"[\s_-]+", "", text.casefold())


ALIASES = {
    key(alias): name
    for name in tiebreaks.NAMES
    for alias in (name, SHORT[name], TITLE[name], TITLE[name].removeprefix("most "))
} | {  # each catalogue's names too, as a refusal lists them in the reader's language
    key(alias): name
    for code in available()
    for name in tiebreaks.NAMES
    for alias in (language(code).gettext(SHORT[name]), language(code).gettext(TITLE[name]))
}


def order_of(league: LeagueRow) -> tuple[str, ...]:
    """The league's tiebreak order (the default for a league that never chose one)."""
    return tiebreaks.stored_order(league.tiebreaks)


def allowed_tiebreaks() -> Said:
    """Every tiebreak, its short name and its name (``BH (Buchholz)``), as a list in words put in
    the reader's language where a refusal says what is allowed."""
    return listing(
        [said("{short} ({title})", short=Said(SHORT[n]), title=Said(TITLE[n])) for n in tiebreaks.NAMES]
    )


def parse_order(text: str) -> tuple[str, ...]:
    """An organiser's order, ``Sonneborn-Berger, Buchholz`` or ``SB, BH`` or the names; refused
    with the names allowed when a part is none of them, or one is listed twice."""
    parts = [p.strip() for p in re.split(r"[,;>]+", text) if p.strip()]
    allowed = allowed_tiebreaks()
    if not parts:
        raise LeagueError(
            "give the tiebreaks in order, separated by commas, from: {allowed}", allowed=allowed
        )
    order = []
    for part in parts:
        name = ALIASES.get(key(part))
        if name is None:
            raise LeagueError(
                "{part} is not a tiebreak; choose from: {allowed}", part=echo(part, 40), allowed=allowed
            )
        if name in order:
            raise LeagueError("{tiebreak} is listed twice", tiebreak=Said(TITLE[name]))
        order.append(name)
    return tuple(order)


def complete_order(typed: str, t: Language = ENGLISH) -> list[tuple[str, str]]:
    """Autocomplete for an order being typed: (shown, value) for each way to add one more tiebreak
    to the complete names typed so far (the last, unfinished part filters them)."""
    parts = [p.strip() for p in typed.split(",")]
    done, partial = parts[:-1], key(parts[-1])
    chosen = [ALIASES[key(p)] for p in done if key(p) in ALIASES]
    left = [n for n in tiebreaks.NAMES if n not in chosen]
    out = []
    for name in left:
        words = (name, t.gettext(SHORT[name]), t.gettext(TITLE[name]), SHORT[name], TITLE[name])
        starts = [key(w) for w in words] + [key(part) for w in words for part in re.split(r"[\s_-]+", w)]
        if partial and not any(k.startswith(partial) for k in starts):
            continue
        order = [*chosen, name]
        shown = ", ".join(t.gettext(TITLE[n]) for n in order)
        if len(shown) > 100:  # too long for a choice: those chosen by their short names, the new one whole
            shown = ", ".join([*(t.gettext(SHORT[n]) for n in chosen), t.gettext(TITLE[name])])
        out.append((shown if len(shown) <= 100 else shown[:99] + "…", ", ".join(order)[:100]))
    return out


UNRATED = N_("a player with no rated game yet counts as a newcomer, {rating}")
"""What the rating tiebreak gives a player with no rated game (see
:meth:`bot.league.draw.Draw.ranking_ratings`): the legend says it, as the standings draw a dash."""


def legend(order: Sequence[str], t: Language = ENGLISH) -> str:
    """``BH: Buchholz, H2H: head to head, Rtg: rating (a player with no rated game yet counts as a
    newcomer, 0)``: the short names of ``order`` explained."""

    def explained(n: str) -> str:
        words = f"{t.gettext(SHORT[n])}: {t.gettext(TITLE[n])}"
        if n == tiebreaks.RATING:
            words += f" ({t.gettext(UNRATED, rating=t.number(shown_or_start(None, None)))})"
        return words

    return ", ".join(explained(n) for n in order)


def values_text(
    values: dict[str, float], order: Sequence[str], t: Language = ENGLISH, *, rated: bool = True
) -> str:
    """``BH 4, H2H 0.5, Rtg 1500``: each tiebreak's value, in the league's order (``0,5`` in Spanish);
    the rating of a player not ``rated`` yet is a dash, as the standings picture draws it."""

    def value(n: str) -> str:
        return "–" if n == tiebreaks.RATING and not rated else t.number(values.get(n, 0.0))

    return ", ".join(f"{t.gettext(SHORT[n])} {value(n)}" for n in order)


@dataclass
class Draft:
    """A round waiting for review: its number, tables (user ids in seat order) and byes."""

    number: int
    groups: list[list[int]]
    byes: list[int]
    dropped: list[int] = field(default_factory=list)  # dropped since it was drawn: taken out of it


def without_dropped(
    groups: Sequence[Sequence[int]],
    byes: Sequence[int],
    dropped: set[int],
    size: int,
    smallest: int | None = None,
) -> tuple[list[list[int]], list[int]]:
    """A drafted round's tables with its dropped players taken out (a dropped player is paired no
    more): tables without one stay as they are; the players of the tables a drop left short,
    then those who had a bye, are seated again at tables of ``size`` (or down to ``smallest``, as
    the pairing seats a field: :func:`bot.league.rounds.table_sizes`) in that order, and whoever
    is left over has the round's bye (as when the field does not divide into tables)."""
    kept = [list(g) for g in groups if not dropped & set(g)]
    loose = [u for g in groups if dropped & set(g) for u in g if u not in dropped]
    loose += [u for u in byes if u not in dropped]
    start = 0
    for n in table_sizes(len(loose), size, smallest):
        kept.append(loose[start : start + n])
        start += n
    return kept, loose[start:]


def swiss_only(league: LeagueRow) -> None:
    if league.format != "swiss":
        raise LeagueError(
            "forbidden pairs and fixed tables apply to Swiss rounds; {league} is not a Swiss league",
            league=league.shown,
        )
    if league.status not in ("signup", "running"):
        raise LeagueError("{league} is over", league=league.shown)


class Controls:
    """The organiser's pairing controls on top of :class:`LeagueService`."""

    def __init__(self, leagues: LeagueService):
        self.leagues = leagues
        self.store = leagues.store

    async def set_settings(
        self, league: LeagueRow, *, order: str | None = None, review: bool | None = None
    ) -> LeagueRow:
        """Change the tiebreak order (a text, see :func:`parse_order`) and/or the review step."""
        names = parse_order(order) if order is not None else None
        if review and league.format != "swiss":
            raise LeagueError("only a Swiss league's rounds can be reviewed before they are published")
        waiting = await self.store.league_pairing.draft(league.id, league.current_round + 1)
        if review is False and waiting is not None:
            raise LeagueError(
                "round {round} waits for your review; publish it with {/league organiser review} first",
                round=league.current_round + 1,
            )
        if not await self.store.league_pairing.set_controls(league.id, tiebreaks=names, review=review):
            raise LeagueError("{league} is over; its settings no longer change", league=league.shown)
        return await self.leagues.reread(league.id)

    async def members(self, league: LeagueRow, users: Sequence[int]) -> None:
        """Refuse unless every one of ``users`` plays in the league (and is not dropped), and no
        one is named twice."""
        if len(set(users)) != len(users):
            raise LeagueError("name each player once")
        active = {p.user_id for p in await self.store.leagues.league_players(league.id) if p.active}
        if any(u not in active for u in users):
            raise LeagueError(
                "name players of {league} (signed up and not dropped); <@{user}> is not one",
                league=league.shown,
                user=next(u for u in users if u not in active),
            )

    async def forbid(self, league: LeagueRow, a: int, b: int, forbidden: bool) -> bool:
        """Forbid (or allow again) the pair; False when it was so already."""
        swiss_only(league)
        await self.members(league, [a, b])
        if forbidden:
            number = league.current_round + 1
            for table in await self.store.league_pairing.fixed_tables(league.id, number):
                if a in table and b in table:  # a fixed table may not hold a forbidden pair
                    raise LeagueError(
                        "<@{a}> and <@{b}> sit at a table you fixed for round {round}; undo it with"
                        " {/league organiser unpair} first",
                        a=a,
                        b=b,
                        round=number,
                    )
        return await self.store.league_pairing.set_forbidden(league.id, a, b, forbidden)

    def next_round(self, league: LeagueRow) -> int:
        number = league.current_round + 1
        if league.status == "running" and number > league.swiss_rounds:
            raise LeagueError("{league} has no Swiss round left to pair", league=league.shown)
        return number

    async def fix(self, league: LeagueRow, players: Sequence[int]) -> int:
        """Seat ``players`` (in seat order) at one table of the next round; the round's number."""
        swiss_only(league)
        if len(players) != league.group_size:
            raise LeagueError(
                "a table of {league} seats {size} players; you named {n}",
                league=league.shown,
                size=league.group_size,
                n=len(players),
            )
        await self.members(league, players)
        forbidden = set(await self.store.league_pairing.forbidden(league.id))
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                if tuple(sorted((a, b))) in forbidden:
                    raise LeagueError(
                        "<@{a}> and <@{b}> are a forbidden pair; allow them first with {/league organiser allow}",
                        a=a,
                        b=b,
                    )
        number = self.next_round(league)
        asked = await self.store.attendance.requests(league.id)
        for uid in players:
            kind = asked.get((number, uid))
            if kind == "bye":
                raise LeagueError(
                    "<@{user}> asked for a bye in round {round}, so is not paired in it; seat someone else",
                    user=uid,
                    round=number,
                )
            if kind == "pause":
                raise LeagueError(
                    "<@{user}> paused round {round}, so is not paired in it; seat someone else",
                    user=uid,
                    round=number,
                )
        if await self.store.league_pairing.draft(league.id, number) is not None:
            raise LeagueError(
                "round {round} is paired already and waits for review; swap players there instead",
                round=number,
            )
        if not await self.store.league_pairing.fix_table(league.id, number, players):
            raise LeagueError(
                "one of them is at a fixed table of round {round} already; {/league organiser unpair} frees them",
                round=number,
            )
        return number

    async def away_over_start(
        self, league: LeagueRow, number: int, players: Sequence[int]
    ) -> tuple[list[tuple[int, float]], bool]:
        """(user, away until) of each of ``players`` away (``/me away``) over round ``number``'s
        start who has not checked in for it: unless they come back first (or check in, when the
        round has a check-in: the second value), the round does not pair them and a table fixed
        with them is not kept (see :meth:`Draw.sit_outs`)."""
        now = self.store.clock.time()
        if number <= 1 or league.current_round == 0:
            due = max(now, league.starts_at)
        else:
            opened = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}
            current = opened.get(league.current_round)
            due = max(now, current.deadline_at) if current is not None else now
        settings = await self.store.attendance.settings(league.id)
        checked = await self.store.attendance.checked_in(league.id, number)
        people = await self.store.people.several(players)
        away = [
            (u, float(person.away_until or due))
            for u in players
            if u not in checked and (person := people.get(u)) is not None and person.away_at(due)
        ]
        return away, attendance.needs_checkin(settings, number, league.swiss_rounds)

    async def unfix(self, league: LeagueRow, user: int) -> list[int]:
        """Undo the next round's fixed table that holds ``user``; its players."""
        swiss_only(league)
        number = self.next_round(league)
        players = await self.store.league_pairing.unfix_table(league.id, number, user)
        if not players:
            raise LeagueError("<@{user}> is at no fixed table of round {round}", user=user, round=number)
        return players

    # ----------------------------------------------------------------- review

    async def draft_round(
        self, league: LeagueRow, number: int, job: Job | None = None, remind_at: float | None = None
    ) -> Draft | None:
        """Pair round ``number`` and keep it for review (the round job consumed, or with
        ``remind_at`` armed again for then, to tell the organiser it waits should a stop come
        first: :func:`bot.league.review.hold`); None when the round opened meanwhile."""
        out = await self.leagues.draw.sit_outs(league, number)  # a bye asked for, a pause, no check-in
        groups, byes = await self.leagues.draw.pair(league, number, None, {o.user_id for o in out})
        saving = self.store.league_pairing.save_draft
        if not await saving(league.id, number, groups, byes, job=job, remind_at=remind_at, first=True):
            return None
        return Draft(number, groups, byes)

    async def draft(self, league: LeagueRow) -> Draft:
        """The round waiting for the organiser's review; refused when there is none."""
        number = league.current_round + 1
        found = (
            await self.store.league_pairing.draft(league.id, number) if league.status == "running" else None
        )
        if found is None:
            if not league.review:
                raise LeagueError(
                    "{league} has no review step; turn it on with {/league organiser settings review:}True",
                    league=league.shown,
                )
            raise LeagueError(
                "no round of {league} is waiting for review; the next is paired when it is due",
                league=league.shown,
            )
        groups, byes = found
        gone = {p.user_id for p in await self.store.leagues.league_players(league.id) if p.dropped}
        dropped = [u for u in [*(u for g in groups for u in g), *byes] if u in gone]
        if dropped:
            smallest = self.leagues.draw.smallest_table(league)
            groups, byes = without_dropped(groups, byes, gone, league.group_size, smallest)
        return Draft(number, groups, byes, dropped)

    async def swap(self, league: LeagueRow, a: int, b: int) -> Draft:
        """Swap two players of the draft between tables (or a table and the byes)."""
        draft = await self.draft(league)
        places = {u: (i, j) for i, g in enumerate(draft.groups) for j, u in enumerate(g)}
        places |= {u: (-1, j) for j, u in enumerate(draft.byes)}
        gone = [u for u in (a, b) if u in draft.dropped]
        if gone:
            raise LeagueError(
                "<@{user}> was dropped from {league}, so is not paired in round {round}; pick someone else",
                user=gone[0],
                league=league.shown,
                round=draft.number,
            )
        missing = [u for u in (a, b) if u not in places]
        if missing:
            raise LeagueError(
                "<@{user}> is not in round {round}'s tables or byes", user=missing[0], round=draft.number
            )
        (ga, ja), (gb, jb) = places[a], places[b]
        if ga == gb:
            raise LeagueError("pick two players at different tables (or one with a bye)")
        rows = [*draft.groups, draft.byes]
        rows[ga][ja], rows[gb][jb] = b, a
        await self.store.league_pairing.save_draft(league.id, draft.number, draft.groups, draft.byes)
        return draft

    async def publish(self, league: LeagueRow) -> OpenedRound:
        """Open the reviewed round as it stands now."""
        draft = await self.draft(league)
        opened = await self.leagues.open_round(league.id, draft.number, paired=(draft.groups, draft.byes))
        if opened is None:
            raise LeagueError(
                "round {round} of {league} is open already", round=draft.number, league=league.shown
            )
        await self.store.league_pairing.drop_draft(league.id, draft.number)
        return opened

    async def tables_text(self, league: LeagueRow, draft: Draft, t: Language = ENGLISH) -> str:
        """The draft's tables in words (for the organiser only)."""
        names = {p.user_id: shown(p.name) for p in await self.store.leagues.league_players(league.id)}
        forbidden = {frozenset(p) for p in await self.store.league_pairing.forbidden(league.id)}
        met = {  # games played: a forfeit never played (no table opened) is no meeting
            frozenset((a, b))
            for g in await self.store.leagues.league_games(league.id)
            if g.session_id is not None
            for i, a in enumerate(g.players)
            for b in g.players[i + 1 :]
        }
        lines = [
            t.gettext(
                "**{league}**, round {round}: the tables before they are published (only you see this)",
                league=league.shown,
                round=draft.number,
            )
        ]
        for i, group in enumerate(draft.groups, 1):
            pairs = [frozenset((a, b)) for j, a in enumerate(group) for b in group[j + 1 :]]
            notes = []
            if any(p in forbidden for p in pairs):
                notes.append(t.gettext("a forbidden pair"))
            if any(p in met for p in pairs):
                notes.append(t.gettext("a repeat meeting"))
            line = t.gettext("Table {table}: {players}", table=i, players=listed(names, group))
            lines.append(line + (f" ({', '.join(notes)})" if notes else ""))
        if draft.byes:
            lines.append(t.gettext("Bye: {players}", players=listed(names, draft.byes)))
        seated = {u for g in draft.groups for u in g}
        for table in await self.store.league_pairing.fixed_tables(league.id, draft.number):
            if not set(table) <= seated:
                lines.append(
                    t.gettext(
                        "A table you fixed could not be kept, as one of its players is not paired in this"
                        " round: {players}",
                        players=listed(names, table),
                    )
                )
        if draft.dropped:
            lines.append(
                t.gettext(
                    "Dropped since this round was drawn, so not paired in it: {players} (their tables"
                    " were seated again with those left and those who had a bye)",
                    players=listed(names, draft.dropped),
                )
            )
        lines.append(
            t.gettext(
                "Pick two players to swap them (seat order stays with the seat), then Publish: only then are"
                " the games opened and the players told."
            )
        )
        return "\n".join(lines)
