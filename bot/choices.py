"""Offering many legal moves in few choices: the Play menu's steps, and autocomplete's groups.

No Discord here: :func:`plan_menu` says which buttons and select one step of a
private menu holds, :func:`complete` which choices autocomplete offers;
:mod:`bot.surface.menus` turns the plan into components.

The menu groups moves by kind first, in the game's order (``KINDS``), with
labels in words (``move_words``, ``WORDS``).  A kind with a few moves, and
every kind that ends the turn, is a row of buttons, so ending the turn is
always one click away.  The other moves are offered in one select of at most
25 choices a step, the way a person thinks about the move: every move when
they fit, else the ways down to them as the game names them (the kind, the
piece or card, the region of the board, then the place: ``Hut F``, ``highest
square in row B``, ``on B7 B8 C6 C7 D7``), each opening its own step with a
Back button (see :class:`Tree`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

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
    ``group_label`` its group's, ``full`` both (where no group title stands above it);
    ``whole``: ``label`` already says the whole move (see ``MoveWords.whole``)."""

    move: str
    kind: str
    label: str
    group: str | None = None
    group_label: str | None = None
    levels: tuple[tuple[str, str], ...] = ()  # (key, words) of each level, the group's among them
    whole: bool = False

    @cached_property
    def steps(self) -> tuple[tuple[str, str], ...]:
        """The menu's levels from the kind down to this move: ``levels``, else its group."""
        if self.levels:
            return self.levels
        return ((self.group, self.group_label or self.group),) if self.group is not None else ()

    @cached_property
    def node(self) -> tuple[str, ...]:
        """Where the move hangs in a menu: its kind, then the keys of its levels."""
        return (self.kind, *(key for key, _ in self.steps))

    @cached_property
    def group_at(self) -> int | None:
        """Where among ``steps`` the group stands (its words are part of the move's)."""
        keys = [key for key, _ in self.steps]
        return keys.index(self.group) if self.group in keys else None

    @property
    def full(self) -> str:
        return f"{self.group_label} {self.label}" if self.group_label and not self.whole else self.label

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


def offered(engine: Engine, state: object, seat: int) -> list[object]:
    """The legal moves a menu or autocomplete offers ``seat``: all of them but those the game
    calls pointless (its optional ``pointless``), which stay legal when typed.  Should every
    legal move be pointless, all are offered, so a player is never left without a choice."""
    moves = list(engine.legal_moves(state, seat))
    pointless: Callable[[object, int, object], bool] | None = getattr(engine, "pointless", None)
    if pointless is None:
        return moves
    kept = [m for m in moves if not pointless(state, seat, m)]
    return kept or moves


def cap(text: str, limit: int, *, capital: bool = True) -> str:
    """A label within ``limit`` characters (cut with "…"), with a capital first letter."""
    if capital and text:
        text = text[0].upper() + text[1:]
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shortened_name(name: str, room: int) -> str:
    """``name`` in at most ``room`` characters: as it is when it fits, else cut with "…"."""
    return name if len(name) <= room else name[: room - 1].rstrip() + "…"


def names_shortened(text: str, names: Sequence[str], limit: int = OPTION_LIMIT) -> str:
    """``text`` as it is when it has at most ``limit`` characters, else with the players' ``names``
    in it that are too long shortened with "…", each to the same length, the longest that lets the
    whole fit (as a board's header shortens them: :func:`renderers.typeset.names_shortened`), so
    that the words around a name (a card, where it lies) stay whole; :func:`cap` cuts what still
    does not fit.  A name already shortened in ``text`` (a select's words made into a button's,
    which has less room) is found as well, and shortened further from the whole name."""
    if len(text) <= limit:
        return text
    found: list[tuple[str, str]] = []  # (a name, one way text writes it), the longest ways first
    for name in sorted({name for name in names if len(name) > 1}, key=len, reverse=True):
        ways = dict.fromkeys(shortened_name(name, room) for room in range(len(name), 1, -1))
        found += [(name, way) for way in ways if way in text]
    shortened = text
    for room in range(max((len(way) for _, way in found), default=0) - 1, 1, -1):
        shortened = text
        for name, way in found:
            if len(way) > room:
                shortened = shortened.replace(way, shortened_name(name, room))
        if len(shortened) <= limit:
            break
    return shortened


def entries(
    engine: Engine,
    state: object,
    seat: int,
    moves: Sequence[object],
    names: Sequence[str],
    t: Language = ENGLISH,
) -> list[Entry]:
    """The legal ``moves`` of ``seat`` described in words of ``t``, seat names put in, shortened
    where a label would not fit a choice (:func:`names_shortened`; the notation stays each
    choice's value)."""
    words = engine.WORDS
    worded: dict[tuple[object, ...], str] = {}

    def named(text: str) -> str:
        return names_shortened(name_seats(text, names), names)

    def in_words(text: str, args: Mapping[str, object]) -> str:
        """``say`` with the names put in, once for each text and values (moves share their group's
        and region's words); values other than plain text and whole numbers (a term, a sentence)
        are worded every time."""
        if not all(type(v) is str or type(v) is int for v in args.values()):
            return named(say(words, text, args, t))
        key = (text, *args.items())
        found = worded.get(key)
        if found is None:
            found = worded[key] = named(say(words, text, args, t))
        return found

    out = []
    for move in moves:
        w = engine.move_words(state, seat, move)
        levels = tuple((level.key, in_words(level.text, level.args)) for level in w.levels())
        out.append(
            Entry(
                str(move),
                w.kind,
                named(w.label(words, t)),
                w.group,
                None if w.group is None else in_words(w.group_message, w.group_args),
                levels,
                w.whole,
            )
        )
    return out


def kind_label(engine: Engine, kind: str, t: Language = ENGLISH) -> str:
    return say(engine.WORDS, f"kind.{kind}", None, t)


def count_moves(n: int, t: Language = ENGLISH) -> str:
    """``3 moves`` in ``t``."""
    return t.ngettext("{n} move", "{n} moves", n)


def entries_by_kind(kinds: Sequence[Kind], found: Sequence[Entry]) -> list[tuple[Kind, list[Entry]]]:
    """``found`` by kind, the kinds in the game's order (``kinds``; one it does not list last)."""
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


def _buttons(picks: Sequence[Pick], names: Sequence[str] = ()) -> list[Control]:
    """``picks`` as rows of buttons, their labels fitted to a button's room with the players'
    ``names`` in them shortened (:func:`names_shortened`), not their ends cut off."""
    picks = [replace(p, label=names_shortened(p.label, names, LABEL_LIMIT)) for p in picks]
    return [
        Control("buttons", tuple(picks[i : i + BUTTONS_PER_ROW]))
        for i in range(0, len(picks), BUTTONS_PER_ROW)
    ]


def _cost(plans: Sequence[Control]) -> int:
    return sum(c.cost for c in plans)


Path = tuple[str, ...]
"""A step of the menu: a kind's key, then the keys of its levels (a group, a region), or a
part (``~2``) of a step with more than 25 choices that no level splits."""

PART = "~"


@dataclass(frozen=True)
class Step:
    """What one step of a menu offers: the moves and the ways further down (at most 25), its
    words, and the step its Back button returns to (``None``: the whole menu)."""

    path: Path
    picks: tuple[Pick, ...]
    title: str
    back: Path | None
    near: int = 0  # how much of the way here the step before offers


class Tree:
    """Moves as a tree: the kinds, each kind's levels (a piece, a region, a place), the moves.

    A step shows one node's descendants at the deepest depth that fits in one select of 25:
    every move when they fit, else the next level's choices, each opening its own step.  A node
    whose step would offer a single way further down shows that one instead."""

    def __init__(self, found: Sequence[Entry], titles: Callable[[str], str], t: Language):
        self.found, self.titles, self.t = list(found), titles, t
        # Worked out on first use, for the nodes a step reaches (a menu shows few of them):
        self.members: dict[Path, list[Entry]] = {(): self.found}  # a node -> the moves under it, in order
        self.split: set[Path] = set()  # the nodes whose children are in ``members``
        self.offers: dict[Path, list[Entry | Path]] = {}  # a step -> its choices
        self.found_at: dict[tuple[Path, int], list[Entry | Path]] = {}  # (node, depth) -> items()

    def under(self, path: Path) -> list[Entry]:
        """The moves under a step's node (its parts left out), in the moves' order."""
        node = tuple(p for p in path if not p.startswith(PART))
        found = self.members.get(node)
        if found is None:
            parent = node[:-1]
            if parent not in self.split:  # all of a node's children at once, in one pass
                self.split.add(parent)
                at = len(parent)
                for e in self.under(parent):
                    if len(key := e.node) > at:
                        self.members.setdefault(key[: at + 1], []).append(e)
            found = self.members.setdefault(node, [])
        return found

    def words(self, node: Path) -> str:
        """A node's words: its kind's title, else its level's words in its first move."""
        if len(node) == 1:
            return self.titles(node[0])
        under = self.under(node)
        return under[0].steps[len(node) - 2][1] if under else node[-1]

    def is_group(self, node: Path) -> bool:
        """Whether a node is a group (its words name the moves)."""
        return any(e.group_at is not None and e.group_at + 2 == len(node) for e in self.under(node))

    def items(self, path: Path, depth: int) -> list[Entry | Path]:
        """The moves and nodes ``depth`` levels below ``path``, in the moves' order."""
        found = self.fitting(path, depth, None)
        assert found is not None  # nothing to fit
        return found

    def fitting(self, path: Path, depth: int, limit: int | None) -> list[Entry | Path] | None:
        """:meth:`items`, or ``None`` as soon as they are more than ``limit``."""
        real = tuple(p for p in path if not p.startswith(PART))
        done = self.found_at.get((real, depth))
        if done is not None:
            return done if limit is None or len(done) <= limit else None
        out: list[Entry | Path] = []
        seen: set[Path] = set()
        cut = len(real) + depth
        for e in self.under(real):
            key = e.node
            if len(key) < cut:
                out.append(e)
            elif (node := key[:cut]) not in seen:
                seen.add(node)
                out.append(node)
            else:
                continue
            if limit is not None and len(out) > limit:
                return None
        self.found_at[(real, depth)] = out
        return out

    def choices(self, path: Path) -> list[Entry | Path]:
        """What the step at ``path`` offers (moves and nodes, or parts of a crowded step)."""
        if path not in self.offers:
            self.offers[path] = self._choices(path)
        return self.offers[path]

    def _choices(self, path: Path) -> list[Entry | Path]:
        parts = [p for p in path if p.startswith(PART)]
        real = tuple(p for p in path if not p.startswith(PART))
        members = self.under(real)
        deepest = max((len(e.node) + 1 - len(real) for e in members), default=1)
        for depth in range(deepest, 0, -1):
            fits = self.fitting(real, depth, CHOICE_LIMIT)
            if fits is not None:
                return fits
        found = self.items(real, 1)  # no level splits it: parts of 25, in order
        if parts:
            i = int(parts[-1][1:])
            return found[i * CHOICE_LIMIT : (i + 1) * CHOICE_LIMIT]
        return [(*real, f"{PART}{i}") for i in range(0, -(-len(found) // CHOICE_LIMIT))]

    def shown(self, path: Path) -> Path:
        """The step really shown for ``path``: down while it offers a single node."""
        while True:
            found = self.choices(path)
            if len(found) != 1 or isinstance(found[0], Entry):
                return path
            path = found[0]

    def count(self, node: Path) -> int:
        """How many moves a choice opening ``node`` leads to (a part: those of its own choices)."""
        if not node[-1].startswith(PART):
            return len(self.under(node))
        return sum(1 if isinstance(x, Entry) else self.count(x) for x in self.choices(node))

    def label(self, node: Path, above: Path) -> str:
        """A node's words seen from the step ``above`` it: the levels in between."""
        real_above = len([p for p in above if not p.startswith(PART)])
        if node[-1].startswith(PART):
            found = self.items(node[:-1], 1)
            i = int(node[-1][1:])
            part = found[i * CHOICE_LIMIT : (i + 1) * CHOICE_LIMIT]
            first, last = (
                self.label(x, node[:-1]) if isinstance(x, tuple) else x.label for x in (part[0], part[-1])
            )
            return f"{first} … {last}"
        start = real_above
        if start == 0 and len(node) >= 2 and self.is_group(node[:2]):  # "Hut F", not "Build a hut › Hut F"
            start = 1
        words = [self.words(node[: i + 1]) for i in range(start, len(node))]
        return " › ".join(w.rstrip(":…") for w in words)

    def step(self, path: Path) -> Step:
        """The step at ``path`` (or the one it leads to), with its picks and its way back."""
        shown = self.shown(path)
        real = [p for p in shown if not p.startswith(PART)]
        picks = []
        for x in self.choices(shown):
            if isinstance(x, Entry):
                titled = x.group_at is not None and len(real) > x.group_at + 1
                picks.append(_move_pick(x, titled=titled))
            else:
                count = count_moves(self.count(x), self.t)
                picks.append(Pick(f"g:{x[0]}:{'/'.join(x[1:])}", self.label(x, shown), count))
        title = self.label(shown, ()) if shown else ""
        back, near = self.back(path, shown)
        return Step(shown, tuple(picks), title, back, near)

    def back(self, path: Path, shown: Path) -> tuple[Path | None, int]:
        """The step before ``path``: the nearest one above it offering the longest part of the way
        to it (``None``: the whole menu), and how long that part is."""
        best: tuple[Path | None, int] = (None, 0)
        for depth in range(len(path) - 1, 0, -1):
            above = self.shown(path[:depth])
            if above == shown:
                continue
            near = max(
                (len(x) for x in self.choices(above) if isinstance(x, tuple) and path[: len(x)] == x),
                default=0,
            )
            if near > best[1]:
                best = (path[:depth], near)
        return best


def _opens(value: str) -> Path:
    """The step a choice ``g:<kind>:<key>/<key>`` opens."""
    kind, _, keys = value[2:].partition(":")
    return (kind, *(k for k in keys.split("/") if k))


def plan_menu(
    kinds: Sequence[Kind],
    titles: Callable[[str], str],
    found: Sequence[Entry],
    *,
    opened: Path | None = None,
    budget: int = MENU_BUDGET,
    t: Language = ENGLISH,
    names: Sequence[str] = (),
) -> list[Control]:
    """The controls of one step of a menu offering the moves ``found``: at most one select, of
    at most 25 choices, and rows of buttons (``names``: the players' names in the moves' words,
    shortened where a button's label would not fit).

    ``titles(kind)`` names a kind in words.  The whole menu has the kinds of few moves and the
    turn-ending moves as buttons, and one select of the other kinds' moves, or where they are
    too many, of the ways down to them (a kind, then a piece, then a region: see :class:`Tree`).
    With ``opened`` (a kind and the keys of its levels) the menu shows that step, a Back
    button, and the turn-ending moves.
    """
    by_kind = entries_by_kind(kinds, found)
    enders = [e for k, members in by_kind if k.ends_turn for e in members]
    ending_kinds = {k.key for k, _ in by_kind if k.ends_turn}
    small = [(k, members) for k, members in by_kind if not k.ends_turn and len(members) <= SMALL_KIND]
    ending = _buttons([_move_pick(e, True) for e in enders], names)
    while True:  # the whole menu
        button_kinds = {k.key for k, _ in small}
        pool = [e for e in found if e.kind not in ending_kinds and e.kind not in button_kinds]
        plans: list[Control] = []
        whole: set[str] = set()  # what the whole menu's select offers
        if pool:
            step = Tree(pool, titles, t).step(())
            whole = {p.value for p in step.picks}
            placeholder = step.title + "…" if step.title else t.gettext("Choose your move")
            plans.append(Control("select", step.picks, cap(placeholder, 150)))
        plans += _buttons([_move_pick(e) for _, members in small for e in members], names) + ending
        if _cost(plans) <= budget or not small:
            break
        small.pop()  # too many buttons: the last small kind joins the select
    if not opened:
        return plans
    opened = tuple(opened[:1]) + tuple(k for k in opened[1:] if k)
    tree = Tree([e for e in found if e.kind not in ending_kinds], titles, t)
    if not tree.under(opened):  # a step no longer there (or never was): the whole menu
        return plans
    step = tree.step(opened)
    select = [Control("select", step.picks, cap(step.title + "…", 150))]
    # Back to the whole menu when it offers as much of the way here as the step above does
    near = max(
        (len(_opens(v)) for v in whole if v.startswith("g:") and opened[: len(_opens(v))] == _opens(v)),
        default=0,
    )
    if step.back is None or near >= step.near:
        back = Pick("back", t.gettext("All moves"))
    else:
        back = Pick(f"back:{step.back[0]}:{'/'.join(step.back[1:])}", t.gettext("Back"))
    return select + _buttons([back] + [_move_pick(e, True) for e in enders], names)


# ------------------------------------------------------------------ autocomplete


def group_moves(
    moves: Sequence[str], prefix: str = "", *, limit: int | None = CHOICE_LIMIT
) -> list[tuple[str, list[str]]]:
    """Split moves into at most 25 groups by a common text prefix (for typing).

    Returns ``(prefix, moves)`` pairs; a group of one move is that move itself.
    When even the shortest longer prefix makes more than 25 groups, the first 25
    prefixes are kept; with ``limit=None`` (a listing with room) every group is.
    """
    moves = [m for m in moves if m.lower().startswith(prefix.lower())]  # as typed: any case
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
    """What a group of moves has in common, in words: the levels they share (``Swap your 5
    Tomathor (hand) › Ana's cards``), else their kind's title."""
    found = [described[m] for m in members if m in described]
    kinds = {e.kind for e in found}
    if len(kinds) != 1:
        return ""
    shared = list(found[0].steps)
    for e in found[1:]:
        same = 0
        while same < min(len(shared), len(e.steps)) and shared[same][0] == e.steps[same][0]:
            same += 1
        del shared[same:]
    if shared:
        return " › ".join(words.rstrip(":…") for _, words in shared)
    return titles(next(iter(kinds)))


def plain(text: str) -> str:
    """``text`` as typed words are compared: any case, without accents (``aji`` finds ``Ají``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def named(entry: Entry) -> str:
    """A move as autocomplete names it: its notation, then its words (``take x1 — take 8 Aji
    (discard pile 1)``); its words alone when both would not fit a name, so that no word is cut
    (the notation is the choice's value, filled in when it is chosen)."""
    both = f"{entry.move} — {entry.full}"
    return cap(both if len(both) <= OPTION_LIMIT else entry.full, OPTION_LIMIT, capital=False)


def complete(
    found: Sequence[Entry],
    typed: str,
    titles: Callable[[str], str],
    t: Language = ENGLISH,
    names: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """Autocomplete's choices, as ``(name, value)`` pairs, for what was typed (``names``: the
    players' names in the moves' words, shortened where a group's name would not fit).

    Moves starting with the text come first, then moves containing it, then (in the room left,
    or all when the notation matches none) moves whose words hold each word typed (``Ana``,
    ``tomathor``, ``ana dish 2``: as the menu calls them).  Up to 25 are offered one by one with
    their words; when more match, the groups are offered first: a prefix to keep typing, named
    with what its moves have in common and how many there are.
    """
    described = {e.move: e for e in found}
    needle = typed.strip().lower()
    moves = [e.move for e in found]
    starts = [m for m in moves if m.lower().startswith(needle)]
    inside = [m for m in moves if needle in m.lower() and m not in starts]
    matching = starts + inside
    worded: list[str] = []
    wanted = plain(typed).split()
    if wanted and len(matching) < CHOICE_LIMIT:  # the notation's matches first; the words' in the room left
        taken = set(matching)
        worded = [e.move for e in found if e.move not in taken and all(w in plain(e.full) for w in wanted)]
        matching += worded[: CHOICE_LIMIT - len(matching)] if matching else worded
    if len(matching) <= CHOICE_LIMIT:
        return [(named(described[m]), m) for m in matching]
    pool = starts or inside or worded
    prefix = pool[0][: len(needle)] if starts else ""
    out = []
    for key, members in group_moves(pool, prefix):
        if len(members) == 1:
            (move,) = members
            out.append((named(described[move]), move))
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
        out.append((cap(names_shortened(name, names), OPTION_LIMIT, capital=False), key))
    return out[:CHOICE_LIMIT]
