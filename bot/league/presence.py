"""Attendance in Swiss leagues: check-in windows, byes asked for, pauses and late sign-ups.

:class:`Attendance` answers the players' and the organiser's commands (no Discord);
:class:`CheckinDesk` is the rounds' gate (:class:`bot.league.season.Gate`): it opens a round's
check-in window before the round, holds the round until the window closes, and, once the round
is paired, tells those who did not check in (as each chose, in their language) and posts who sat
the round out and why.  The rules themselves are in :mod:`bot.league.attendance`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Protocol

from bot.league import attendance, organiser, texts
from bot.league.attendance import Settings
from bot.league.names import all_shown, of, shown
from bot.league.organiser import told
from bot.league.season import Rounds
from bot.league.service import LeagueError, LeagueService, OpenedRound, signed_up_text
from bot.storage.leagues import LeagueRow
from bot.texts import clip
from engines.core import N_
from languages import ENGLISH, Language

CHECKIN_DM = N_(
    "Check in for {round} of **{league}** before {when}, with the button in {channel} or {/league checkin};"
    " who has not checked in then is not paired in that round."
)
ABSENT_DM = N_(
    "You did not check in for {round} of **{league}**, so you are not paired in it (no points). You play"
    " again from the next round; {/league pause} keeps you out of rounds you cannot play."
)
KIND_WORDS = {
    attendance.LATE: N_("joined late"),
    attendance.REQUESTED: N_("bye asked for"),
    attendance.PAUSE: N_("paused"),
    attendance.ABSENT: N_("did not check in"),
}
HELD_BACK = 1e-6  # a window closing this close to now counts as closed


class CheckinPosts(Protocol):
    """What the check-in needs of Discord besides what the rounds need."""

    async def language(self, guild_id: int) -> Language:
        """The language of what is posted in the server."""

    async def post_checkin(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        league_id: int,
        number: int,
        label: str,
        pings: Sequence[int],
        told: Sequence[object] = (),
    ) -> bool:
        """Post ``text`` with a check-in button labelled ``label``; False when Discord refused it.
        ``told`` names the call, the same when a stop before its record has it made again
        (:meth:`bot.league.season.Posts.post`)."""


def points_words(points: float, t: Language) -> str:
    return t.ngettext("{n} point", "{n} points", texts.form(points), n=t.number(points))


def attendance_lines(
    league: LeagueRow, number: int, found: dict[str, list[tuple[str, float]]], t: Language
) -> list[str]:
    """Who sat round ``number`` out for attendance, a line per reason, each player written as
    ``found`` gives them (a name or a mention) with the points they got: a missed check-in
    (nothing), a bye asked for, a pause, a late sign-up.  The round's post and the league's web
    page both say it so."""
    lines = []
    if found.get(attendance.ABSENT):
        lines.append(
            t.gettext(
                "Not paired in {round} (did not check in): {players}",
                round=texts.round_name(league, number, t),
                players=", ".join(who for who, _ in found[attendance.ABSENT]),
            )
        )
    for kind, words in (
        (attendance.REQUESTED, N_("Bye asked for: {players}")),
        (attendance.PAUSE, N_("Paused or away: {players}")),
        (attendance.LATE, N_("Joined late: {players}")),
    ):
        if found.get(kind):
            players = ", ".join(f"{who} ({points_words(points, t)})" for who, points in found[kind])
            lines.append(t.gettext(words, players=players))
    return lines


class Attendance:
    """The players' and the organiser's attendance commands, answered in language ``t``."""

    def __init__(self, leagues: LeagueService):
        self.leagues = leagues
        self.store = leagues.store

    async def settings(self, league: LeagueRow) -> Settings:
        return await self.store.attendance.settings(league.id)

    @staticmethod
    def swiss_only(league: LeagueRow) -> None:
        if league.format != "swiss":
            raise LeagueError(
                "{league} is not a Swiss league; check-ins, byes on request and pauses are for Swiss leagues",
                league=league.shown,
            )
        if league.status not in ("signup", "running"):
            raise LeagueError("{league} is over", league=league.shown)

    async def player(self, league: LeagueRow, user_id: int) -> None:
        """Refused unless ``user_id`` plays in the league (signed up, not dropped)."""
        for p in await self.store.leagues.league_players(league.id):
            if p.user_id == user_id and not p.substitute:
                if p.dropped:
                    raise LeagueError("you were dropped from {league}", league=league.shown)
                return
        raise LeagueError("you are not signed up for {league}", league=league.shown)

    def checks_in(self, league: LeagueRow, settings: Settings, number: int) -> bool:
        """Whether round ``number`` has a check-in window."""
        return (
            league.format == "swiss"
            and not self.leagues.bracket_stage(league, number)
            and attendance.needs_checkin(settings, number, league.swiss_rounds)
        )

    async def arm(self, league: LeagueRow, first: float) -> tuple[float, float] | None:
        """After the start: round 1's job moves to when its check-in window opens.  Returns when
        the window opens and when the round does (the window closes: the round's time, but never
        before the window has been open its full length); None without a check-in."""
        settings = await self.store.attendance.settings(league.id)
        if not self.checks_in(league, settings, 1):
            return None
        due = max(self.store.clock.time(), attendance.window_opens(first, settings))
        await self.store.leagues.schedule_round(league.id, 1, due)
        return due, attendance.window_closes(first, due, settings)

    # ----------------------------------------------------------------- the organiser

    async def configure(
        self,
        league: LeagueRow,
        checkin: str | None,
        hours: float | None,
        requested_bye: str | None,
        t: Language = ENGLISH,
    ) -> str:
        """Set the league's check-in and what a bye asked for scores; the settings in words."""
        self.swiss_only(league)
        now = await self.settings(league)
        if checkin is not None and checkin not in attendance.CHECKIN_MODES:
            raise LeagueError("check-in is one of: {modes}", modes=", ".join(attendance.CHECKIN_MODES))
        if requested_bye is not None and requested_bye not in attendance.BYE_CHOICES:
            raise LeagueError(
                "a bye asked for scores one of: {choices}", choices=", ".join(attendance.BYE_CHOICES)
            )
        seconds = now.checkin_seconds
        if hours is not None:
            if not (
                math.isfinite(hours)
                and attendance.MIN_CHECKIN_SECONDS <= hours * 3600 <= league.round_seconds
            ):
                raise LeagueError(
                    "the check-in window lasts from {least} minutes to a round ({most} hours), not {hours} hours",
                    least=int(attendance.MIN_CHECKIN_SECONDS // 60),
                    most=t.number(league.round_seconds / 3600),
                    hours=t.number(hours),
                )
            seconds = hours * 3600
        chosen = Settings(checkin or now.checkin, seconds, requested_bye or now.requested_bye)
        await self.store.attendance.set_settings(league.id, chosen)
        return self.settings_text(league, chosen, t)

    @staticmethod
    def settings_text(league: LeagueRow, settings: Settings, t: Language = ENGLISH) -> str:
        hours = t.number(settings.checkin_seconds / 3600)
        form = texts.form(settings.checkin_seconds / 3600)
        if settings.checkin == "every":
            checkin = t.ngettext(
                "players check in before every round, in a window of {n} hour",
                "players check in before every round, in a window of {n} hours",
                form,
                n=hours,
            )
        elif settings.checkin == "first":
            checkin = t.ngettext(
                "players check in before the first round, in a window of {n} hour",
                "players check in before the first round, in a window of {n} hours",
                form,
                n=hours,
            )
        else:
            checkin = t.gettext("no check-in")
        points = attendance.requested_points(settings.requested_bye, league.bye_points)
        return t.gettext(
            "{league}: {checkin}; a bye asked for scores {points}.",
            league=league.shown,
            checkin=checkin,
            points=points_words(points, t),
        )

    # ----------------------------------------------------------------- players

    async def open_round(self, league: LeagueRow) -> int | None:
        """The round whose check-in window is open now, if one is."""
        number = league.current_round + 1
        window = await self.store.attendance.window(league.id, number)
        if window is None or window.closes_at <= self.store.clock.time() + HELD_BACK:
            return None
        return number

    async def check_in(
        self, league: LeagueRow, user_id: int, number: int | None = None, t: Language = ENGLISH
    ) -> str:
        """Check in for the round whose window is open (``number``: the one a button names)."""
        self.swiss_only(league)
        await self.player(league, user_id)
        open_now = await self.open_round(league)
        if open_now is None and number is None and (await self.settings(league)).checkin == "off":
            raise LeagueError(
                "{league} has no check-in: every player is paired unless they ask for a bye or pause",
                league=league.shown,
            )
        if open_now is None or (number is not None and number != open_now):
            if number is not None:
                raise LeagueError(
                    "the check-in for round {round} of {league} is closed", round=number, league=league.shown
                )
            raise await self.none_open(league)
        asked = (await self.store.attendance.requests(league.id, user_id)).get((open_now, user_id))
        if asked == "bye":
            raise LeagueError(
                "you asked for a bye in round {round}; take it back with {/league bye cancel:}True for that round"
                " to play",
                round=open_now,
            )
        if asked == "pause":
            raise LeagueError(
                "you paused round {round}; {/league resume} takes the pause back", round=open_now
            )
        round_name = texts.round_name(league, open_now, t)
        if not await self.store.attendance.check_in(league.id, open_now, user_id):
            return t.gettext(
                "You were already checked in for {round} of {league}.", round=round_name, league=league.shown
            )
        return t.gettext("You are checked in for {round} of {league}.", round=round_name, league=league.shown)

    async def none_open(self, league: LeagueRow) -> LeagueError:
        """Why a check-in is refused when no window is open: with when the next round's opens,
        when it has one still to open."""
        number = league.current_round + 1
        before = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}.get(number - 1)
        due = before.deadline_at if before is not None else league.starts_at if number == 1 else None
        settings = await self.settings(league)
        if league.status == "running" and due is not None and self.checks_in(league, settings, number):
            opens = attendance.window_opens(due, settings)
            if opens > self.store.clock.time():
                return LeagueError(
                    "there is no check-in open for {league} now; the one for round {round} opens {when}",
                    league=league.shown,
                    round=number,
                    when=texts.when(opens),
                )
        return LeagueError("there is no check-in open for {league} now", league=league.shown)

    async def paired_through(self, league: LeagueRow) -> int:
        """The last round paired: the current one, or the next while it waits for the organiser's
        review (its tables are drawn, so a bye or a pause asked for it could not reach them)."""
        number = league.current_round + 1
        drafted = await self.store.league_pairing.draft(league.id, number)
        return number if drafted is not None else league.current_round

    async def ask_bye(
        self, league: LeagueRow, user_id: int, number: int, cancel: bool = False, t: Language = ENGLISH
    ) -> str:
        """A bye in coming round ``number`` (or, with ``cancel``, the request taken back)."""
        self.swiss_only(league)
        await self.player(league, user_id)
        through = await self.paired_through(league)
        if league.current_round < number == through:
            raise LeagueError(
                "round {round} of {league} is paired already and waits for the organiser's review; a bye in"
                " it can no longer be asked for or taken back",
                round=number,
                league=league.shown,
            )
        coming = attendance.coming_rounds(through, league.swiss_rounds)
        if not coming:
            raise LeagueError("no round of {league} is left to ask a bye for", league=league.shown)
        if number not in coming:
            raise LeagueError(
                "round {round} is not a coming round of {league}; ask for one of rounds {first} to {last}",
                round=number,
                league=league.shown,
                first=coming[0],
                last=coming[-1],
            )
        store = self.store.attendance
        if cancel:
            if not await store.withdraw(league.id, user_id, "bye", [number]):
                raise LeagueError("you have not asked for a bye in round {round}", round=number)
            said = t.gettext(
                "Your bye in round {round} of {league} is taken back.", round=number, league=league.shown
            )
            return said + await self.checked_in_too(league, user_id, [number], t)
        await self.not_fixed(league, user_id, [number])
        asked = (await store.requests(league.id, user_id)).get((number, user_id))
        if asked == "pause":
            raise LeagueError(
                "you paused round {round} already (a pause scores nothing); {/league resume} takes it back",
                round=number,
            )
        if asked == "bye" or not await store.request(league.id, user_id, [number], "bye"):
            raise LeagueError("you have asked for a bye in round {round} already", round=number)
        settings = await self.settings(league)
        points = attendance.requested_points(settings.requested_bye, league.bye_points)
        return t.gettext(
            "You have a bye in round {round} of {league}: you are not paired in it, and it scores {points}.",
            round=number,
            league=league.shown,
            points=points_words(points, t),
        )

    async def not_fixed(self, league: LeagueRow, user_id: int, rounds: Sequence[int]) -> None:
        """Refused when the organiser seated the player at a fixed table of one of ``rounds``: the
        table would be dropped whole, unannounced, if they sat that round out."""
        for number in rounds:
            if any(user_id in g for g in await self.store.league_pairing.fixed_tables(league.id, number)):
                raise LeagueError(
                    "you are at a table the organiser fixed for round {round}; ask them to undo it with"
                    " {/league organiser unpair} first",
                    round=number,
                )

    async def pause(self, league: LeagueRow, user_id: int, count: int, t: Language = ENGLISH) -> str:
        """Leave the player out of the next ``count`` rounds not paired yet."""
        self.swiss_only(league)
        await self.player(league, user_id)
        if count < 1:
            raise LeagueError("pause for 1 round or more, not {n}", n=count)
        rounds = attendance.pause_rounds(await self.paired_through(league), count, league.swiss_rounds)
        if not rounds:
            raise LeagueError("no round of {league} is left to pause", league=league.shown)
        await self.not_fixed(league, user_id, rounds)
        added = await self.store.attendance.request(league.id, user_id, rounds, "pause")
        if not added:
            raise LeagueError(
                "you have paused (or asked a bye for) every round of those already: {rounds}",
                rounds=", ".join(map(str, rounds)),
            )
        return t.ngettext(
            "You are paused for round {rounds} of {league}: you are not paired in it (no points)."
            " {/league resume} takes it back.",
            "You are paused for rounds {rounds} of {league}: you are not paired in them (no points)."
            " {/league resume} takes it back.",
            len(added),
            rounds=", ".join(map(str, added)),
            league=league.shown,
        )

    async def resume(self, league: LeagueRow, user_id: int, t: Language = ENGLISH) -> str:
        """Take back every pause of rounds not paired yet."""
        self.swiss_only(league)
        await self.player(league, user_id)
        gone = await self.store.attendance.withdraw(league.id, user_id, "pause")
        if not gone:
            raise LeagueError("you have no pause in {league} to take back", league=league.shown)
        said = t.ngettext(
            "Your pause of round {rounds} of {league} is taken back: you are paired again.",
            "Your pause of rounds {rounds} of {league} is taken back: you are paired again.",
            len(gone),
            rounds=", ".join(map(str, gone)),
            league=league.shown,
        )
        return said + await self.checked_in_too(league, user_id, gone, t)

    async def checked_in_too(
        self, league: LeagueRow, user_id: int, rounds: Sequence[int], t: Language = ENGLISH
    ) -> str:
        """Taking back a bye or a pause is saying one will play: when one of ``rounds`` has its
        check-in open now (its call went out without them, as they were not to play), they are
        checked in for it, or they would sit it out with nothing.  What to add to the answer."""
        window = await self.open_round(league)
        if window is None or window not in rounds:
            return ""
        await self.store.attendance.check_in(league.id, window, user_id)
        return " " + t.gettext(
            "You are checked in for {round} of {league}.",
            round=texts.round_name(league, window, t),
            league=league.shown,
        )

    async def late_join(
        self, league: LeagueRow, user_id: int, name: str, *, who: str | None = None, t: Language = ENGLISH
    ) -> str:
        """Sign up for a running Swiss league until half its rounds are played, with one bye."""
        rounds = await self.store.leagues.league_rounds(league.id)
        played = sum(1 for r in rounds if r.closed_at is not None)
        if league.format != "swiss" or league.in_final:
            raise LeagueError("{league} has started; sign-ups are closed", league=league.shown)
        if not attendance.late_join_open(league.format, played, league.swiss_rounds):
            raise LeagueError(
                "{league} has played {played} of its {rounds} rounds; late sign-ups close at half the rounds",
                league=league.shown,
                played=played,
                rounds=league.swiss_rounds,
            )
        sign = functools.partial(self.store.attendance.late_join, league.id, user_id, name, league.bye_points)
        # A round waiting for review was paired without them: their bye is in it (as the store's).
        drafted = await self.store.league_pairing.draft(league.id, league.current_round + 1)
        bye_round = league.current_round + 1 if drafted is not None else league.current_round
        players = await self.leagues.enrol(league, user_id, sign, who=who)
        written = shown(name)  # as the answer writes it
        if bye_round < 1:
            said = signed_up_text(name, league, players, t)
        else:
            said = t.gettext(
                "{name} joined {league} late, with a bye in {round} ({points}), and is paired from the next round",
                name=written,
                league=league.shown,
                round=texts.round_name(league, bye_round, t),
                points=points_words(league.bye_points, t),
            )
        # Signing up is saying one will play: a check-in window open now (its call went out
        # before they joined) has them checked in, or they would be left out of its round.
        window = await self.open_round(league)
        if (
            window is not None
            and window > bye_round
            and await self.store.attendance.check_in(league.id, window, user_id)
        ):
            said += t.gettext(
                "; {name} is checked in for {round}, whose check-in is open",
                name=written,
                round=texts.round_name(league, window, t),
            )
        return said

    async def notes(self, league: LeagueRow, t: Language = ENGLISH) -> list[str]:
        """Below the standings: every round sat out for attendance, whose, why and what it scored."""
        if league.format != "swiss":
            return []
        names = {p.user_id: shown(p.name) for p in await self.store.leagues.league_players(league.id)}
        kinds = await self.store.attendance.bye_kinds(league.id)
        entries = [  # the pairing's own byes are not listed: every league has those
            t.gettext(
                "{name} (round {round}, {why}, {points})",
                name=of(names, u),
                round=r,
                why=t.gettext(KIND_WORDS[kinds[(r, u)]]),
                points=points_words(p, t),
            )
            for r, u, p in await self.store.leagues.league_byes(league.id)
            if kinds.get((r, u), attendance.PAIRING) != attendance.PAIRING
        ]
        if not entries:
            return []
        return [t.gettext("Not paired: {entries}", entries="; ".join(entries))]


class CheckinDesk:
    """The rounds' gate (:class:`bot.league.season.Gate`): check-in windows and who sat out."""

    def __init__(self, rounds: Rounds, posts: CheckinPosts, attendance_: Attendance):
        self.rounds = rounds
        self.posts = posts
        self.attendance = attendance_
        self.store = rounds.store
        self.leagues = rounds.leagues

    async def hold(self, league: LeagueRow, number: int) -> bool:
        """Whether round ``number`` must wait: its check-in window is not yet closed (opening it
        when due), or the round before it has not closed."""
        now = self.store.clock.time()
        rounds = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}
        before = rounds.get(number - 1)
        previous_open = number > 1 and (before is None or before.closed_at is None)
        settings = await self.store.attendance.settings(league.id)
        if not self.attendance.checks_in(league, settings, number):
            return previous_open
        window = await self.store.attendance.window(league.id, number)
        if window is None:
            due = league.starts_at if number == 1 else before.deadline_at if before is not None else now
            closes = attendance.window_closes(due, now, settings)
            await self.store.attendance.open_window(league.id, number, closes)
            window = await self.store.attendance.window(league.id, number)
        if window is not None and not window.called and window.closes_at > now + HELD_BACK:
            # Stored, then called: a process stopped in between leaves the call to this job's
            # next firing, which makes it (once: it is marked made after).
            await self.announce(league, number, window.closes_at)
            await self.store.attendance.called(league.id, number)
        if window is not None and window.closes_at > now + HELD_BACK:
            if not previous_open:  # else the round before's deadline makes this round due
                await self.store.leagues.schedule_round(league.id, number, window.closes_at)
            return True
        return previous_open

    async def announce(self, league: LeagueRow, number: int, closes: float) -> None:
        t = await self.posts.language(league.guild_id)
        requests = await self.store.attendance.requests(league.id)
        players = [
            p.user_id
            for p in await self.store.leagues.league_players(league.id)
            if p.active and (number, p.user_id) not in requests
        ]
        pings = await self.rounds.tell(
            players,
            t,
            CHECKIN_DM,
            lambda mine: {"round": texts.round_name(league, number, mine)},
            told(league, "check-in", number, closes),  # (made again with the call, as it is)
            channel=f"<#{league.channel_id}>",
            league=league.shown,
            when=texts.when(closes),
        )
        text = t.gettext(
            "✅ **{league}**: check in for {round} before {when}, with the button below or {/league checkin}."
            " Who has not checked in then is not paired in that round. {players}",
            players=" ".join(f"<@{u}>" for u in pings),
            round=texts.round_name(league, number, t),
            league=league.shown,
            when=texts.when(closes),
        )
        label = t.gettext("Check in")
        await self.posts.post_checkin(
            league.channel_id,
            league.guild_id,
            text.strip(),
            league.id,
            number,
            label,
            pings,
            told=told(league, "check-in", number, closes),  # (made again by a stop before it is marked)
        )

    async def notes(self, league: LeagueRow, t: Language) -> list[str]:
        return await self.attendance.notes(league, t)

    async def sat_out(
        self, league: LeagueRow, number: int, t: Language, mentions: Sequence[int] = ()
    ) -> list[str]:
        """Who sat round ``number`` out for attendance and why, one line per reason (``mentions``:
        those named by a mention rather than by name)."""
        kinds = await self.store.attendance.bye_kinds(league.id)
        names = all_shown(await self.rounds.names(league))  # written in the message
        out: dict[str, list[tuple[int, float]]] = {}
        for r, u, p in await self.store.leagues.league_byes(league.id):
            kind = kinds.get((r, u), attendance.PAIRING)
            if r == number and kind != attendance.PAIRING:
                out.setdefault(kind, []).append((u, p))
        labelled = {  # a mention only for those who missed the check-in
            kind: [
                (f"<@{u}>" if kind == attendance.ABSENT and u in mentions else of(names, u), p)
                for u, p in found
            ]
            for kind, found in out.items()
        }
        return attendance_lines(league, number, labelled, t)

    async def opened(self, opened: OpenedRound) -> None:
        """A round is paired: tell who sat it out, and arm the next round's check-in window.

        Until this is done the round's guard stays armed, and a stop on the way has it done again
        (:meth:`bot.league.season.Rounds.resume`): so the post of who sat out comes last of what is
        told, followed at once by arming the next check-in (over the guard) or dropping the guard,
        and a stop after it cannot post it twice; what is told before it (the organiser's fixed
        tables not kept, the direct messages to who missed the check-in) is told again only when
        the stop came before that post.  Each carries a nonce naming what it tells, and the guard
        fires two minutes after the stop, so Discord takes what it tells again for the messages it
        had already (:mod:`bot.surface.nonces`)."""
        league, number = opened.league, opened.number
        t = await self.posts.language(league.guild_id)
        kinds = await self.store.attendance.bye_kinds(league.id)
        await self.fixed_not_kept(opened, kinds)
        absent = [u for (r, u), kind in kinds.items() if r == number and kind == attendance.ABSENT]
        pings: list[int] = []
        if absent:
            pings = await self.rounds.tell(
                sorted(absent),
                t,
                ABSENT_DM,
                lambda mine: {"round": texts.round_name(league, number, mine)},
                told(league, "absent", number),  # (told again by a stop before who sat out is posted)
                league=league.shown,
            )
        lines = await self.sat_out(league, number, t, pings)
        settings = await self.store.attendance.settings(league.id)
        if lines:
            text = f"**{league.shown}**\n" + "\n".join(lines)
            await self.rounds.post(league, text, pings=pings, told=told(league, "sat out", number))
        if number < league.swiss_rounds and self.attendance.checks_in(league, settings, number + 1):
            due = max(self.store.clock.time(), attendance.window_opens(opened.deadline_at, settings))
            await self.store.leagues.schedule_round(league.id, number + 1, due)

    async def fixed_not_kept(self, opened: OpenedRound, kinds: dict[tuple[int, int], str]) -> None:
        """Tell the organiser of each table they fixed for the round that could not be kept,
        because one of its players was not paired in it (no check-in, away, dropped): the others
        at it were paired with the rest of the field."""
        league, number = opened.league, opened.number
        played = {u for g in opened.games for u in g.players}  # moved by a swap at review: kept
        broken = [
            g for g in await self.store.league_pairing.fixed_tables(league.id, number) if not set(g) <= played
        ]
        if not broken:
            return
        # written in the message; one who left (no longer signed up) is named by a mention
        names = all_shown(await self.rounds.names(league))
        dropped = {p.user_id for p in await self.store.leagues.league_players(league.id) if p.dropped}
        why = {
            attendance.ABSENT: N_("{name} did not check in"),
            attendance.PAUSE: N_("{name} was away or paused"),
            attendance.REQUESTED: N_("{name} had a bye"),
            attendance.LATE: N_("{name} had a bye"),
        }

        def words(t: Language) -> str:
            out = []
            for table in broken:
                reasons = [
                    t.gettext(
                        N_("{name} left the league")
                        if u not in names
                        else N_("{name} was dropped")
                        if u in dropped
                        else why[kinds[number, u]],
                        name=names.get(u, f"<@{u}>"),
                    )
                    for u in table
                    if u not in names or u in dropped or kinds.get((number, u), attendance.PAIRING) in why
                ]
                out.append(
                    t.gettext(
                        "{organiser}: the table you fixed for {round} of **{league}** ({players}) could not be"
                        " kept, as {reasons}; the others at it were paired with the rest of the field.",
                        organiser=f"<@{league.organiser_id}>",
                        round=texts.round_name(league, number, t),
                        league=league.shown,
                        players=", ".join(names.get(u, f"<@{u}>") for u in table),
                        reasons=texts.and_list(reasons, t)
                        if reasons
                        else t.gettext("one of them was not paired"),
                    )
                )
            return clip("\n".join(out))

        t = await self.posts.language(league.guild_id)
        letter = told(league, "fixed", number, broken)  # (told again by a stop before who sat out is posted)
        await organiser.tell(self.store, self.rounds.posts, league, words, t, told=letter)
