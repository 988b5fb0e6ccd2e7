"""A profile in words (the text beside the picture, its alt text, the lobby's short form) and
as the picture's plain values."""

from __future__ import annotations

import engines
from bot.profiles import Profile, figures_of, table_gate
from bot.profiles.reckon import PACES, Figures
from bot.ratings import shown_or_start
from bot.storage import Store
from bot.storage.profiles import Gate
from bot.time import gameclock as gc
from languages import ENGLISH, N_, Language
from renderers import profile as picture

PACE_NAMES = {"live": N_("live"), "fast": N_("fast"), "daily": N_("daily"), "slow": N_("slow")}
"""The pace tiers' names as shown (the stored and typed names are the keys)."""


def pace_name(pace: str | None, t: Language = ENGLISH) -> str | None:
    return None if pace is None else t.gettext(PACE_NAMES.get(pace, pace))


def pace_limit(pace: str, t: Language = ENGLISH) -> str:
    """``fast (a median of 4 h or less)``."""
    limit = PACES[pace]
    if limit == float("inf"):
        return t.gettext("{pace} (any median)", pace=pace_name(pace, t))
    return t.gettext("{pace} (a median of {limit} or less)", pace=pace_name(pace, t), limit=gc.spoken(limit))


def short(found: Figures, t: Language = ENGLISH) -> str:
    """The lobby's short form: ``reliability 72 %, pace fast (median 4 h)`` or ``new (80 %)``."""
    if found.new:
        return t.gettext("new player (reliability {value} %)", value=found.reliability)
    if found.median is None:
        return t.gettext("reliability {value} %", value=found.reliability)
    return t.gettext(
        "reliability {value} %, pace {pace} (median {time})",
        value=found.reliability,
        pace=pace_name(found.pace, t),
        time=gc.spoken(found.median),
    )


def gate_text(gate: Gate, t: Language = ENGLISH) -> str | None:
    """What a gate asks, in words (None: nothing)."""
    parts = []
    if gate.reliability is not None:
        parts.append(t.gettext("reliability {value} % or more", value=gate.reliability))
    if gate.pace is not None and gate.pace in PACES:
        parts.append(t.gettext("pace {pace}", pace=pace_limit(gate.pace, t)))
    return ", ".join(parts) or None


def text(name: str, found: Profile, t: Language = ENGLISH) -> str:
    """The profile in words, one figure a line (also the picture's alt text)."""
    f = found.figures
    lines = [t.gettext("{name}'s reliability and pace", name=name)]
    if f.new:
        lines.append(
            t.gettext(
                "New player: no turns yet, so the reliability starts neutral at {value} % and no pace "
                "is held against them.",
                value=f.reliability,
            )
        )
    else:
        lines.append(t.gettext("Reliability: {value} %.", value=f.reliability))
        on_time = t.ngettext(
            "On time: {percent} % of {n} turn.",
            "On time: {percent} % of {n} turns.",
            f.turns,
            percent=f"{f.on_time_percent or 0:.0f}",
        )
        missed = (
            t.ngettext(
                "{n} missed: the computer played it.", "{n} missed: the computer played them.", f.missed
            )
            if f.missed
            else t.gettext("None missed.")
        )
        lines.append(f"{on_time} {missed}")
    if f.median is not None:
        lines.append(
            t.gettext(
                "Pace: {pace}, median time to move {time}.",
                pace=pace_name(f.pace, t),
                time=gc.spoken(f.median),
            )
        )
    for game, median in f.median_by_game.items():
        lines.append(
            t.ngettext(
                "{game}: median time to move {time} over {n} turn.",
                "{game}: median time to move {time} over {n} turns.",
                f.timed_by_game.get(game, 0),  # the turns they made themselves (missed ones left out)
                game=engines.title(game),
                time=gc.spoken(median),
            )
        )
    ended = f.finished + f.abandoned + f.timed_out + f.resigned
    lines.append(
        t.ngettext(
            "{n} game ended: {finished} finished, {abandoned} abandoned, {timed_out} timed out, {resigned} resigned.",
            "{n} games ended: {finished} finished, {abandoned} abandoned, {timed_out} timed out, {resigned} resigned.",
            ended,
            finished=f.finished,
            abandoned=f.abandoned,
            timed_out=f.timed_out,
            resigned=f.resigned,
        )
    )
    lines.append(
        t.gettext("Now: {running} running, {waiting} in lobbies.", running=f.running, waiting=f.waiting)
    )
    for game, rating in found.ratings.items():
        lines.append(
            t.gettext(
                "{game} rating on this server: {rating}.",
                game=engines.title(game),
                rating=t.number(shown_or_start(rating.mu, rating.sigma), 1),
            )
        )
    return "\n".join(lines)


def card(name: str, found: Profile, t: Language = ENGLISH) -> picture.Card:
    """The picture's values (its words are drawn in the render's language)."""
    f = found.figures
    games = sorted(set(f.turns_by_game) | set(found.ratings))
    return picture.Card(
        name=name,
        new=f.new,
        reliability=f.reliability,
        on_time=f.on_time_percent,
        turns=f.turns,
        missed=f.missed,
        median=f.median,
        pace=pace_name(f.pace, t),
        ended=(f.finished, f.abandoned, f.timed_out, f.resigned),
        running=f.running,
        waiting=f.waiting,
        games=tuple(
            picture.GameLine(
                engines.title(g),
                f.turns_by_game.get(g, 0),
                f.median_by_game.get(g),
                shown_or_start(found.ratings[g].mu, found.ratings[g].sigma) if g in found.ratings else None,
            )
            for g in games
        ),
    )


async def lobby_lines(
    store: Store, session_id: int, guild_id: int | None, people: list[tuple[int, str]], t: Language = ENGLISH
) -> str:
    """What a lobby adds: each seated person's reliability and pace, and what the table asks."""
    lines = []
    for user_id, name in people:
        found = await figures_of(store, user_id)
        lines.append(f"{name}: {short(found, t)}")
    asked = gate_text(await table_gate(store, session_id, guild_id), t)
    if asked:
        lines.append(t.gettext("This table asks for {gate} (/gate table).", gate=asked))
    return "\n".join(lines)
