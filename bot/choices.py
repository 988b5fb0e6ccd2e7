"""Offering many legal moves in few choices: the Play menu's plan, and autocomplete's groups.

No Discord here: :func:`plan_menu` says which buttons and selects a private
menu holds, :func:`complete` which choices autocomplete offers; :mod:`bot.surface.menus`
turns the plan into components and the terminal lists moves the same way.

The menu groups moves by kind first, in the game's order (``KINDS``), with
labels in words (``move_words``, ``WORDS``).  A kind with a few moves, and
every kind that ends the turn, is a row of buttons, so ending the turn is
always one click away; a larger kind is one select, or several selects of at
most 25 moves each (a group, such as the card a Tomathor swap gives away,
kept in one select where it fits).  When that would not fit in one message,
or the game asks for it (``Kind.two_step``: which hut, then where), the
kind's select offers its groups first, and choosing one shows that group's
moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.core import Engine, Kind, name_seats, say
from languages import ENGLISH, Language

CHOICE_LIMIT = 25
"""Choices in one select menu or one autocomplete answer."""

BUTTONS_PER_ROW = 5
LABEL_LIMIT = 80  # a button's label
OPTION_LIMIT = 100  # a select option's label, description and value

MENU_BUDGET = 38
"""Components a menu may use: a message with components v2 holds 40 in all, two of
which are the menu's text and its picture.  A select costs 2 (its row and itself);
a row of buttons 1 plus one per button."""

SMALL_KIND = 3
"""A kind with this many moves or fewer is a row of buttons."""


@dataclass(frozen=True)
class Entry:
    """One legal move with its words (seat names already put in): ``label`` its own words,
    ``group_label`` its group's, ``full`` both (where no group title stands above it)."""

    move: str
    kind: str
    label: str
    group: str | None = None
    group_label: str | None = None

    @property
    def full(self) -> str:
        return f"{self.group_label} {self.label}" if self.group_label else self.label

    @property
    def group_title(self) -> str:
        return (self.group_label or "").rstrip(":…")


@dataclass(frozen=True)
class Pick:
    """One choice on a menu: ``m:<move>`` plays a move, ``g:<kind>:<group>`` opens a group
    (``g:<kind>:`` a whole kind), ``back`` returns to the whole menu."""

    value: str
    label: str
    description: str | None = None
    ends: bool = False  # it ends the turn (shown as the primary button)


@dataclass(frozen=True)
class Control:
    """A row of buttons, or a select with its placeholder."""

    kind: str  # "buttons" | "select"
    picks: tuple[Pick, ...]
    placeholder: str = ""

    @property
    def cost(self) -> int:
        return 2 if self.kind == "select" else 1 + len(self.picks)


def offered(engine: Engine, state: Any, seat: int) -> list[Any]:
    """The legal moves a menu or autocomplete offers ``seat``: all of them but those the game
    calls pointless (its optional ``pointless``), which stay legal when typed.  Should every
    legal move be pointless, all are offered, so a player is never left without a choice."""
    moves = list(engine.legal_moves(state, seat))
    pointless: Callable[[Any, int, Any], bool] | None = getattr(engine, "pointless", None)
    if pointless is None:
        return moves
    kept = [m for m in moves if not pointless(state, seat, m)]
    return kept or moves


def cap(text: str, limit: int, *, capital: bool = True) -> str:
    """A label within ``limit`` characters (cut with "…"), with a capital first letter."""
    if capital and text:
        text = text[0].upper() + text[1:]
    return text if len(text) <= limit else text[: limit - 1] + "…"


def entries(
    engine: Engine,
    state: Any,
    seat: int,
    moves: Sequence[Any],
    names: Sequence[str],
    t: Language = ENGLISH,
) -> list[Entry]:
    """The legal ``moves`` of ``seat`` described in words of ``t``, seat names put in (the
    notation stays each choice's value)."""
    words = engine.WORDS
    out = []
    for move in moves:
        w = engine.move_words(state, seat, move)
        group_label = w.group_label(words, t)
        out.append(
            Entry(
                str(move),
                w.kind,
                name_seats(w.label(words, t), names),
                w.group,
                name_seats(group_label, names) if group_label is not None else None,
            )
        )
    return out


def kind_label(engine: Engine, kind: str, t: Language = ENGLISH) -> str:
    return say(engine.WORDS, f"kind.{kind}", None, t)


def count_moves(n: int, t: Language = ENGLISH) -> str:
    """``3 moves`` in ``t``."""
    return t.ngettext("{n} move", "{n} moves", n)


def part_of(title: str, i: int, total: int, t: Language = ENGLISH) -> str:
    """A select's placeholder when a kind takes several: ``Cards (2 of 3)``."""
    return (
        t.gettext("{title} ({part} of {parts})", title=title, part=i + 1, parts=total) if total > 1 else title
    )


def _by_kind(kinds: Sequence[Kind], found: Sequence[Entry]) -> list[tuple[Kind, list[Entry]]]:
    order = {k.key: i for i, k in enumerate(kinds)}
    known = {k.key: k for k in kinds}
    groups: dict[str, list[Entry]] = {}
    for e in found:
        groups.setdefault(e.kind, []).append(e)
    keys = sorted(groups, key=lambda k: (order.get(k, len(order)), k))
    return [(known.get(k, Kind(k)), groups[k]) for k in keys]


def _move_pick(e: Entry, ends: bool = False, *, titled: bool = False) -> Pick:
    """A move as a choice; ``titled``: its group's words stand above it (a select's placeholder)."""
    return Pick(f"m:{e.move}", e.label if titled else e.full, e.move, ends)


def _chunks(found: Sequence[Entry]) -> list[list[Entry]]:
    """Moves in selects of at most 25, a group kept in one select where it fits."""
    out: list[list[Entry]] = []
    current: list[Entry] = []
    runs: dict[str | None, list[Entry]] = {}
    for e in found:
        runs.setdefault(e.group, []).append(e)
    for run in runs.values():
        if current and len(current) + len(run) > CHOICE_LIMIT:
            out.append(current)
            current = []
        while len(run) > CHOICE_LIMIT:
            out.append(run[:CHOICE_LIMIT])
            run = run[CHOICE_LIMIT:]
        if len(current) + len(run) > CHOICE_LIMIT:
            out.append(current)
            current = []
        current = current + run
    if current:
        out.append(current)
    return out


def _flat(title: str, found: Sequence[Entry], t: Language = ENGLISH) -> list[Control]:
    """Selects of at most 25 moves; a select holding one group is titled by the group."""
    parts = _chunks(found)
    out = []
    for i, part in enumerate(parts):
        groups = {e.group for e in part}
        if len(groups) == 1 and part[0].group is not None:
            placeholder = part[0].group_title + "…"
            picks = tuple(_move_pick(e, titled=True) for e in part)
        else:
            placeholder = part_of(title, i, len(parts), t)
            picks = tuple(_move_pick(e) for e in part)
        out.append(Control("select", picks, placeholder[:150]))
    return out


def _grouped(kind: str, title: str, found: Sequence[Entry], t: Language = ENGLISH) -> list[Control]:
    """A kind's groups as choices that open them (``g:<kind>:<group>``)."""
    groups: dict[str, list[Entry]] = {}
    for e in found:
        groups.setdefault(e.group or "", []).append(e)
    picks = []
    for key, members in groups.items():
        label = members[0].group_title or title
        picks.append(Pick(f"g:{kind}:{key}", label, count_moves(len(members), t)))
    parts = [picks[i : i + CHOICE_LIMIT] for i in range(0, len(picks), CHOICE_LIMIT)]
    return [Control("select", tuple(p), part_of(f"{title}…", i, len(parts), t)) for i, p in enumerate(parts)]


def _buttons(picks: Sequence[Pick]) -> list[Control]:
    return [
        Control("buttons", tuple(picks[i : i + BUTTONS_PER_ROW]))
        for i in range(0, len(picks), BUTTONS_PER_ROW)
    ]


def _cost(plans: Sequence[Control]) -> int:
    return sum(c.cost for c in plans)


def plan_menu(
    kinds: Sequence[Kind],
    titles: Callable[[str], str],
    found: Sequence[Entry],
    *,
    opened: tuple[str, str] | None = None,
    budget: int = MENU_BUDGET,
    t: Language = ENGLISH,
) -> list[Control]:
    """The controls of a menu offering the moves ``found``.

    ``titles(kind)`` names a kind in words.  With ``opened`` (a kind and a
    group, ``""`` for the whole kind) the menu shows that group's moves, a
    button back to every move, and the turn-ending moves.
    """
    by_kind = _by_kind(kinds, found)
    enders = [e for k, members in by_kind if k.ends_turn for e in members]
    if opened is not None:
        kind, group = opened
        chosen = [e for e in found if e.kind == kind and (not group or e.group == group)]
        if chosen:
            title = chosen[0].group_title if group else titles(kind)
            selects = _flat(title, chosen, t) if len(chosen) > SMALL_KIND else []
            plans = selects or _buttons([_move_pick(e) for e in chosen])
            tail = [Pick("back", t.gettext("All moves"))] + [
                _move_pick(e, True) for e in enders if e not in chosen
            ]
            plans = plans + _buttons(tail)
            while _cost(plans) > budget and len(plans) > 1:  # a group too large for one message
                plans.pop(-2 if plans[-1].kind == "buttons" else -1)
            return plans
    # Each kind as buttons, one or more selects, or its groups.
    shapes: list[tuple[Kind, list[Entry], str]] = []
    for k, members in by_kind:
        if k.ends_turn or len(members) <= SMALL_KIND:
            shape = "buttons"
        elif k.two_step and len(members) > CHOICE_LIMIT and any(e.group for e in members):
            shape = "groups"
        else:
            shape = "flat"
        shapes.append((k, members, shape))

    def build() -> list[Control]:
        """The controls in the game's order of kinds; neighbouring small kinds share rows of
        buttons, and the turn-ending moves come last."""
        plans: list[Control] = []
        pending: list[Pick] = []
        ending: list[Pick] = []
        for k, members, shape in shapes:
            if shape == "buttons":
                if k.ends_turn:
                    ending.extend(_move_pick(e, True) for e in members)
                else:
                    pending.extend(_move_pick(e) for e in members)
                continue
            plans += _buttons(pending)
            pending = []
            if shape == "groups":
                plans += _grouped(k.key, titles(k.key), members, t)
            elif shape == "kind":
                plans.append(
                    Control(
                        "select",
                        (Pick(f"g:{k.key}:", titles(k.key), count_moves(len(members), t)),),
                        titles(k.key) + "…",
                    )
                )
            else:
                plans += _flat(titles(k.key), members, t)
        return plans + _buttons(pending) + _buttons(ending)

    plans = build()
    while _cost(plans) > budget:
        # Shrink the kind whose selects cost most: flat -> its groups -> one choice opening it.
        candidates = []
        for i, (k, members, shape) in enumerate(shapes):
            if shape == "flat":
                has_groups = any(e.group for e in members) and len({e.group for e in members}) > 1
                candidates.append((len(_chunks(members)), i, "groups" if has_groups else "kind"))
            elif shape == "groups":
                candidates.append((len(_grouped(k.key, "", members)), i, "kind"))
        candidates = [c for c in candidates if c[0] > 1 or c[2] == "groups"]
        if not candidates:
            break
        _, i, new_shape = max(candidates)
        k, members, _ = shapes[i]
        shapes[i] = (k, members, new_shape)
        plans = build()
    return plans


# ------------------------------------------------------------------ autocomplete


def group_moves(
    moves: Sequence[str], prefix: str = "", *, limit: int | None = CHOICE_LIMIT
) -> list[tuple[str, list[str]]]:
    """Split moves into at most 25 groups by a common text prefix (for typing).

    Returns ``(prefix, moves)`` pairs; a group of one move is that move itself.
    When even the shortest longer prefix makes more than 25 groups, the first 25
    prefixes are kept; with ``limit=None`` (a listing with room) every group is.
    """
    moves = [m for m in moves if m.startswith(prefix)]
    if len(moves) <= CHOICE_LIMIT:
        return [(m, [m]) for m in moves]
    longest = max(len(m) for m in moves)
    best: dict[str, list[str]] | None = None
    for k in range(len(prefix) + 1, longest + 1):
        groups: dict[str, list[str]] = {}
        for m in moves:
            groups.setdefault(m[:k], []).append(m)
        if len(groups) > CHOICE_LIMIT:
            break
        best = groups
    if best is None:  # even one more character splits into too many: keep the first 25 prefixes
        groups = {}
        for m in moves:
            groups.setdefault(m[: len(prefix) + 1], []).append(m)
        best = dict(list(groups.items())[:limit]) if limit is not None else groups
    return list(best.items())


def _words_of(members: Sequence[str], described: dict[str, Entry], titles: Callable[[str], str]) -> str:
    """What a group of moves has in common, in words: its group's label, else its kind's."""
    found = [described[m] for m in members if m in described]
    if not found:
        return ""
    labels = {e.group_title for e in found}
    if len(labels) == 1 and "" not in labels:
        return next(iter(labels))
    kinds = {e.kind for e in found}
    return titles(next(iter(kinds))) if len(kinds) == 1 else ""


def complete(
    found: Sequence[Entry], typed: str, titles: Callable[[str], str], t: Language = ENGLISH
) -> list[tuple[str, str]]:
    """Autocomplete's choices, as ``(name, value)`` pairs, for what was typed.

    Moves starting with the text come first, then moves containing it.  Up to
    25 are offered one by one with their words; when more match, the groups are
    offered first: a prefix to keep typing, named with what its moves have in
    common and how many there are.
    """
    described = {e.move: e for e in found}
    needle = typed.strip().lower()
    moves = [e.move for e in found]
    starts = [m for m in moves if m.lower().startswith(needle)]
    inside = [m for m in moves if needle in m.lower() and m not in starts]
    matching = starts + inside
    if len(matching) <= CHOICE_LIMIT:
        return [(cap(f"{m} — {described[m].full}", OPTION_LIMIT, capital=False), m) for m in matching]
    pool = starts or inside
    prefix = pool[0][: len(needle)] if starts else ""
    out = []
    for key, members in group_moves(pool, prefix):
        if len(members) == 1:
            (move,) = members
            out.append((cap(f"{move} — {described[move].full}", OPTION_LIMIT, capital=False), move))
            continue
        words = _words_of(members, described, titles)
        if words:
            name = t.ngettext(
                "{prefix}… {words} ({n} move: keep typing)",
                "{prefix}… {words} ({n} moves: keep typing)",
                len(members),
                prefix=key,
                words=words,
            )
        else:
            name = t.ngettext(
                "{prefix}… ({n} move: keep typing)",
                "{prefix}… ({n} moves: keep typing)",
                len(members),
                prefix=key,
            )
        out.append((cap(name, OPTION_LIMIT, capital=False), key))
    return out[:CHOICE_LIMIT]
