"""Sentences kept for translation, and what engines say with them.

:class:`Said` (a sentence's English template and its values) with :func:`said`, :func:`said_n`,
:func:`term` and :func:`N_`; the refusals that carry one (:class:`SetupError`, :class:`MoveError`
and its kinds); :class:`Event`, a line of what happened with its private and public forms,
and :func:`name_seats`; a board in words (:class:`Section`); a game's words for its moves
(:class:`Kind`, :class:`MoveWords`, :func:`say`) and :func:`plural`.  :mod:`engines.core`
explains how they fit the engine contract and re-exports every name, so games and the table
import them from there.

Imports the standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol, overload

# --------------------------------------------------------------------------- sentences


def N_(message: str) -> str:
    """Mark an English text for translation where it is written (it is translated where it is
    shown, by the table); returns it unchanged."""
    return message


class Translates(Protocol):
    """What a language offers to put a :class:`Said` in words (``languages.Language`` is one)."""

    def gettext(self, message: str, /, **values: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **values: Any) -> str: ...

    def pgettext(self, context: str, message: str, /, **values: Any) -> str: ...


@dataclass(frozen=True)
class Said:
    """A sentence kept for translation: the English template ``msg`` (its message id, with named
    placeholders), and ``args``, the values put in.

    A value is a number, plain text that reads the same in every language (notation, a card's
    code, a seat written ``{p0}``), or another :class:`Said` (a term of the game such as a
    terrain, or a list in words), which is put in words first.  ``plural`` is the plural
    template of a counted sentence, whose count is ``args["n"]``; ``context`` separates two
    meanings of one English word (:func:`term`).  Engines build these with :func:`said`,
    :func:`said_n` and :func:`term`, which also mark the text for extraction; the table puts
    them in the reader's language with :meth:`in_words`.  No sentence is glued from
    translated pieces: a whole sentence is one message, and its words order its values."""

    msg: str
    args: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    context: str | None = None

    def in_words(self, language: Translates | None = None) -> str:
        """The sentence in ``language`` (``None``: the English it is written in)."""
        return _in_words(self.msg, self.args, self.plural, self.context, language)

    def __str__(self) -> str:
        return self.in_words()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"msg": self.msg}
        if self.args:
            out["args"] = {k: v.to_dict() if isinstance(v, Said) else v for k, v in self.args.items()}
        if self.plural is not None:
            out["plural"] = self.plural
        if self.context is not None:
            out["context"] = self.context
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Said:
        raw = data.get("args")
        if not raw:
            return cls(str(data["msg"]), {}, data.get("plural"), data.get("context"))
        # a sentence put in is a mapping with a "msg"; text and numbers (most values) are told
        # apart by their type alone
        args = {
            k: cls.from_dict(v) if type(v) not in _PLAIN and isinstance(v, Mapping) and "msg" in v else v
            for k, v in raw.items()
        }
        return cls(str(data["msg"]), args, data.get("plural"), data.get("context"))

    def renamed(self, names: Mapping[str, str]) -> Said:
        """This sentence with each plain-text value found in ``names`` (a game's former spelling
        of a name, see ``RENAMED`` in :class:`engines.core.Engine`) written the new way, also in
        the sentences put in."""
        if not self.args:
            return self
        args = {
            k: v.renamed(names) if isinstance(v, Said) else names.get(v, v) if type(v) is str else v
            for k, v in self.args.items()
        }
        return self if args == dict(self.args) else replace(self, args=args)


_PLAIN = (str, int)


# A command, button or option named in a sentence (``{/game join}``, ``{button Rematch}``,
# ``{option max_turns}``): in English as written; in another language, by the name its client
# shows (``languages.MENTION``).
_MENTION = re.compile(r"\{(/[^{}]+|button [^{}]+|option [^{}]+|choice [^{}]+)\}")


@lru_cache(maxsize=4096)
def _seats_in(*templates: str | None) -> frozenset[int]:
    """The seats a template names (``{p0}``): templates are few, so each is read once."""
    return frozenset(int(m) for t in templates if t for m in _SEAT_REF.findall(t))


def _in_words(
    msg: str,
    args: Mapping[str, Any],
    plural: str | None,
    context: str | None,
    language: Translates | None,
) -> str:
    """:meth:`Said.in_words` of the sentence these fields make (:func:`say` needs no
    :class:`Said` built for it)."""
    values = {k: v.in_words(language) if isinstance(v, Said) else v for k, v in args.items()}
    if values:  # a seat written {p0} stays, for the table to name (name_seats)
        seats = _seat_values(msg, plural)
        if seats:
            values = {**seats, **values}
    if language is None:
        n = values.get("n", 1)
        template = _english(msg if plural is None or n in (1, -1) else plural)
        return template.format(**values) if values else template
    if plural is not None:
        count = int(values.pop("n"))
        return language.ngettext(msg, plural, count, **values)
    if context is not None:
        return language.pgettext(context, msg, **values)
    return language.gettext(msg, **values)


@lru_cache(maxsize=4096)
def _seat_values(msg: str, plural: str | None) -> Mapping[str, str]:
    """The seats ``msg`` and ``plural`` name, each written as itself (``{"p0": "{p0}"}``), to
    keep them through formatting; shared, so never changed."""
    return {f"p{i}": f"{{p{i}}}" for i in _seats_in(msg, plural)}


@lru_cache(maxsize=4096)
def _english(template: str) -> str:
    """A template as English shows it: commands, buttons and options named as written, and an
    option's choice by its value (the table names it as the menu shows it: languages.Language)."""
    return _MENTION.sub(_english_mention, template)


def _english_mention(m: re.Match[str]) -> str:
    field = m[1]
    if field.startswith("choice "):
        return field.rsplit(" ", 1)[-1]
    return field.removeprefix("button ").removeprefix("option ")


def said(message: str, /, **args: Any) -> Said:
    """A sentence: ``said("{p0} took {card}", card="5T")``; seats as ``{p0}`` stay in the text."""
    return Said(message, args)


def said_n(n: int, singular: str, plural: str, /, **args: Any) -> Said:
    """A counted sentence: ``said_n(3, "{n} point", "{n} points")`` (each language has its own
    plural forms; ``n`` is also the placeholder ``{n}``)."""
    return Said(singular, {"n": n, **args}, plural=plural)


OPTION_CONTEXT = "slash option name"
"""The catalogue context of a slash command option's name (``languages.OPTION_CONTEXT``, which
the engines may not import): a game option named in a sentence reads as the reader's client
shows it."""


def option_name(name: str) -> Said:
    """A game option's name, put into a sentence as the reader's client shows it
    (``max_turns``: ``máx_turnos``)."""
    return Said(name, context=OPTION_CONTEXT)


def term(context: str, word: str) -> Said:
    """One word of a game's vocabulary (a terrain, a colour, a kind of card), translated in
    ``context`` (``"tiwanaku term"``) and put into sentences as a value."""
    return Said(word, context=context)


_MARKUP = re.compile(r"([\\*_~|`<@\[\]])")
"""Characters Discord's markdown or mentions give a meaning to within a line (a quoted value never
starts one, so ``-``, ``#`` and ``>``, which mark lists, headings and quotes there, stay as typed:
``B3-C3``)."""


def echo(text: object, limit: int | None = None) -> str:
    """What someone typed, as a refusal repeats it: in double quotes, with Discord's markdown and
    mentions escaped (``*x*``, ``||a||``, ``<@1>`` or ``@everyone`` read as typed, formatting and
    pinging nothing), a character that does not print shown as its code (``\\u200b``), and no
    Python quoting (``'it's'`` reads ``"it's"``); cut after ``limit`` characters with ``…``."""
    shown = str(text)
    cut = limit is not None and len(shown) > limit
    if cut:
        shown = shown[:limit]
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in shown)
    return '"' + _MARKUP.sub(r"\\\1", shown) + ("…" if cut else "") + '"'


def in_words(text: str | Said | None, language: Translates | None = None) -> str | None:
    """``text`` in ``language``: a :class:`Said` translated, plain text (written before
    sentences were kept for translation, or built by the code) as it is."""
    return text.in_words(language) if isinstance(text, Said) else text


@dataclass(frozen=True)
class Section:
    """One part of a board in words: a heading and its lines (each line one item a screen
    reader reads on its own).  ``private``: what only the view's own seat may read."""

    heading: Said
    lines: tuple[Said, ...]
    private: bool = False


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """One thing that happened, in a line a player can read.

    ``visible_to`` limits ``text`` to some seats (``None``: everyone).  Seats
    outside it, and spectators, see ``public_text`` instead (``None``: nothing).
    A Lima Kahlo steal, for instance, tells the two players involved which card
    moved and tells everyone else only that a card moved.

    Seats are written ``{p0}``, ``{p1}``...; :func:`name_seats` puts names in.
    ``kind`` names what happened; :data:`END` marks the engine's own summary of
    a finished game (the table shows the outcome once, and leaves it out of
    the channel's last post).
    """

    text: str
    visible_to: frozenset[int] | None = None
    public_text: str | None = None
    kind: str = ""
    said: Said | None = None
    public_said: Said | None = None

    @classmethod
    def told(
        cls,
        said: Said,
        *,
        visible_to: Iterable[int] | None = None,
        public: Said | None = None,
        kind: str = "",
    ) -> Event:
        """An event kept for translation: ``said`` for the seats in ``visible_to`` (everyone
        when ``None``), ``public`` for the others.  ``text`` and ``public_text`` hold their
        English, so a reader of the English line needs nothing else."""
        return cls(
            text=said.in_words(),
            visible_to=None if visible_to is None else frozenset(visible_to),
            public_text=None if public is None else public.in_words(),
            kind=kind,
            said=said,
            public_said=public,
        )

    def text_for(self, seat: int | None) -> str | None:
        """The line ``seat`` may read (``None``: a spectator), seats still as ``{pN}``."""
        if self.visible_to is None or (seat is not None and seat in self.visible_to):
            return self.text
        return self.public_text

    def words_for(
        self,
        seat: int | None,
        language: Translates | None = None,
        worded: Callable[[Said], Said] | None = None,
    ) -> str | None:
        """:meth:`text_for` in ``language``: the kept sentence translated (first put as a player
        reads it by ``worded``, a game's optional hook: Guacamole's cards named in words), or the
        English line when the event has none (events stored before sentences were kept)."""
        kept = self.said_for(seat)
        if kept is not None:
            return (kept if worded is None else worded(kept)).in_words(language)
        return self.text_for(seat)

    def said_for(self, seat: int | None) -> Said | None:
        """The kept sentence ``seat`` may read (``None``: a spectator), or ``None`` when it may
        read nothing or the event was stored before sentences were kept."""
        if self.visible_to is None or (seat is not None and seat in self.visible_to):
            return self.said
        return self.public_said

    def renamed(self, names: Mapping[str, str]) -> Event:
        """This event with its kept sentences' former names written the new way
        (:meth:`Said.renamed`); an event stored before sentences were kept stays as it is."""
        if self.said is None and self.public_said is None:
            return self
        said = None if self.said is None else self.said.renamed(names)
        public = None if self.public_said is None else self.public_said.renamed(names)
        if said is self.said and public is self.public_said:  # nothing renamed: as it was stored
            return self
        return replace(
            self,
            text=self.text if said is None else said.in_words(),
            public_text=self.public_text if public is None else public.in_words(),
            said=said,
            public_said=public,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "text": self.text,
            "visible_to": None if self.visible_to is None else sorted(self.visible_to),
            "public_text": self.public_text,
            "kind": self.kind,
        }
        if self.said is not None:
            out["said"] = self.said.to_dict()
        if self.public_said is not None:
            out["public_said"] = self.public_said.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        vis = data.get("visible_to")
        told = data.get("said")
        public = data.get("public_said")
        return cls(
            text=data["text"],
            visible_to=None if vis is None else frozenset(vis),
            public_text=data.get("public_text"),
            kind=data.get("kind", ""),
            said=None if told is None else Said.from_dict(told),
            public_said=None if public is None else Said.from_dict(public),
        )


END = "end"
"""The kind of the event that sums up a finished game (final scores, the winner)."""

Told = tuple[str, Said]
"""One event of a turn as one reader may read it: its ``kind`` and its sentence.  A game's
optional ``tell_turn(told) -> list[Said]`` tells a seat's turn from these the way a person
would (what was made, in a few lines, the name once): :mod:`bot.telling` lays them out."""


def told_lines(
    told: Sequence[Told],
    clause: Callable[[str, Said], Said | None],
    line_of: Callable[[str, Said], int | None],
    *,
    mover: Any = None,
    merge: Callable[[list[Said]], list[Said]] | None = None,
) -> list[list[Said]]:
    """A turn's lines from its events, for a game's ``tell_turn``: each event goes on line
    ``line_of(kind, said)`` (``None``: a line of its own, after the others, as the game said
    it); on its line, the event's ``clause`` (what the player did, without the subject) joins
    the line's other clauses in one list, and an event without one (something that happened
    to someone else, or to the table; a sentence about another player) follows as its own
    sentence.  The first line with a
    clause names ``mover`` (the value of the events' ``player`` or ``p0``); the others do not."""
    if mover is None:
        mover = next(
            (s.args.get("player", s.args.get("p0")) for _, s in told if {"player", "p0"} & set(s.args)), None
        )
    steps: dict[int, tuple[list[Said], list[Said]]] = {}
    own: list[list[Said]] = []
    for kind, sentence in told:
        line = line_of(kind, sentence)
        if line is None:
            own.append([sentence])
            continue
        clauses, sentences = steps.setdefault(line, ([], []))
        subject = sentence.args.get("player", sentence.args.get("p0"))
        part = clause(kind, sentence) if subject is None or subject == mover else None
        if part is None:
            sentences.append(sentence)
        else:
            clauses.append(part)
    return step_lines((steps[index] for index in sorted(steps)), mover, merge) + own


def step_lines(
    steps: Iterable[tuple[list[Said], list[Said]]],
    mover: Any,
    merge: Callable[[list[Said]], list[Said]] | None = None,
) -> list[list[Said]]:
    """One line per step of a turn, from its clauses (what the player did, merged by ``merge``,
    in one list) and the sentences that follow them; the first line with a clause names
    ``mover`` (``None``: no one to name), and a step with nothing to say has no line."""
    lines: list[list[Said]] = []
    named = mover is None
    for clauses, sentences in steps:
        out: list[Said] = []
        if merge is not None:
            clauses = merge(clauses)
        if clauses:
            actions = listing(clauses)
            out.append(actions if named else said("{player} {actions}", player=mover, actions=actions))
            named = True
        out.extend(sentences)
        if out:
            lines.append(out)
    return lines


@overload
def listing(items: Sequence[Said]) -> Said: ...
@overload
def listing(items: Sequence[Said | str]) -> Said | str: ...
def listing(items: Sequence[Said | str]) -> Said | str:
    """``items`` as a list in words, each language joining its last item its own way: ``a``,
    ``a and b``, ``a, b and c`` (``a, b y c``)."""
    if len(items) == 1:
        return items[0]
    head: Said | str = items[0]
    for item in items[1:-1]:
        head = said("{first}, {then}", first=head, then=item)
    return said("{items} and {last}", items=head, last=items[-1])


def listed(items: Sequence[Said], semicolons: bool = False) -> Said:
    """Sentences in a list, one after the other, separated by commas (or, for choices each with
    its own commas, semicolons): ``a, b, c``; ``a; b; c``."""
    out = items[0]
    for item in items[1:]:
        if semicolons:
            out = said("{list}; {item}", list=out, item=item)
        else:
            out = said("{list}, {item}", list=out, item=item)
    return out


_SEAT_REF = re.compile(r"\{p(\d+)\}")
_SEAT_NAMED = re.compile(r"\{p(\d+)\}('s\b)?")
_QUALIFIED = re.compile(r"(.*\S) \([^()]*\)", re.DOTALL)


def possessive(name: str) -> str:
    """``name`` as it stands before an English ``'s``: without the bracketed qualifier at its end,
    so that ``P2 (cpu, normal)`` and ``Sub (for Cusi)`` make ``P2's dish 1`` and ``Sub's turn``,
    not ``P2 (cpu, normal)'s dish 1``; the name stays whole wherever else a text writes it, and in
    every list of the seats."""
    bare = _QUALIFIED.fullmatch(name)
    return bare[1] if bare else name


def name_seats(text: str, names: Sequence[str] | None = None) -> str:
    """Replace ``{pN}`` in an event's text with the seat's name (``P1``... by default); before an
    English ``'s``, the name without a bracketed qualifier (see :func:`possessive`), unless another
    seat's name is the same without its own."""
    if "{p" not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        i = int(m.group(1))
        name = names[i] if names is not None and i < len(names) else f"P{i + 1}"
        if not m.group(2):
            return name
        bare = possessive(name)
        # the qualifier stays where it tells two seats apart ("Ana (EU)" and "Ana (US)")
        others = [possessive(n) for j, n in enumerate(names or ()) if j != i]
        return (name if bare in others else bare) + m.group(2)

    return _SEAT_NAMED.sub(sub, text)


# --------------------------------------------------------------------------- errors


class _Told(ValueError):
    """An error whose message is kept for translation: ``Error("{card} is not in your hand",
    card="5T")``, or ``Error(said(...))``.  ``str()`` is the English sentence; ``said`` is the
    message id and its values, which the table puts in the reader's language.  A message
    without values is taken as it is written (an English text built by the code is still
    accepted, and reads in English everywhere)."""

    said: Said

    def __init__(self, message: str | Said = "", /, **args: Any) -> None:
        self.said = message if isinstance(message, Said) else Said(str(message), args)
        super().__init__(self.said.in_words())


class SetupError(_Told):
    """The options or the seats cannot make a game; the message says why."""


class MoveError(_Told):
    """A move was refused.  The message tells the player what was wrong and
    what is allowed; the game is unchanged."""


class NotYourTurn(MoveError):
    """The seat may not act now."""


class IllegalMove(MoveError):
    """The move is well formed but the rules forbid it here."""


class MalformedMove(MoveError):
    """The text is not a move in this game's notation."""


class GameOver(MoveError):
    """The game has ended; no more moves are taken."""


# --------------------------------------------------------------------------- words


def plural(n: float, word: str, words: str | None = None) -> str:
    """A count with its noun: ``1 point``, ``0 points``, ``2 points``, ``1.5 points``.

    The one place where a count meets a noun, in the engines and at the table,
    so that no text says "1 points".  ``words`` is the plural when it is not
    ``word`` + "s" (``plural(n, "patch", "patches")``).
    """
    shown = str(int(n)) if float(n).is_integer() else f"{n:g}"
    return f"{shown} {word if shown in ('1', '-1') else (words or word + 's')}"


@dataclass(frozen=True)
class Kind:
    """A kind of move, as menus group moves: ``key`` (its words are ``kind.<key>``
    in the game's ``WORDS``).  ``ends_turn``: a move of this kind ends the turn
    (menus keep it one click away)."""

    key: str
    ends_turn: bool = False


@dataclass(frozen=True)
class Level:
    """One step of a menu's way down to a move, below its kind: ``key`` names it among its
    neighbours (no ``/``), ``text`` and ``args`` its words in the game's ``WORDS`` (the piece,
    then the region of the board: ``Hut F``, ``top row B``)."""

    key: str
    text: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MoveWords:
    """A move in words, kept structured for translation.

    ``kind`` is the key of its :class:`Kind`; ``text`` the message id of its
    label and ``args`` the values put in (plain strings; seats as ``{pN}``);
    ``group`` the key of its group within the kind (``None``: no groups) and
    ``group_args`` the values for the group's label (message id ``group.<kind>``, or
    ``group_text`` where a group of the kind reads otherwise: ``Stopper on your guanga``).
    ``regions``: further steps a menu may take on the way to the move when there are
    too many to list (the region of the board, then the place), after the group, or
    before it with ``regions_first`` (the row of the board, then the tile); ``then``:
    steps after all those (how far a tile turns, then what to pay).  ``whole``: the label
    says the whole move, its group's part among it (``Swap your 5 Tomathor (hand) for 3 Lima
    (discard pile 1)``), so a menu shows it alone, with no group's words put before it, also in
    the group's own step, where each choice still reads on its own.
    """

    kind: str
    text: str
    args: Mapping[str, Any] = field(default_factory=dict)
    group: str | None = None
    group_args: Mapping[str, Any] = field(default_factory=dict)
    regions: tuple[Level, ...] = ()
    regions_first: bool = False
    then: tuple[Level, ...] = ()
    group_text: str | None = None
    whole: bool = False

    @property
    def group_message(self) -> str:
        """The message id of the group's label: ``group_text``, else ``group.<kind>``."""
        return self.group_text or f"group.{self.kind}"

    def levels(self) -> tuple[Level, ...]:
        """The menu's steps from the kind down to the move: the group and the regions."""
        group = () if self.group is None else (Level(self.group, self.group_message, self.group_args),)
        return (self.regions + group if self.regions_first else group + self.regions) + self.then

    def label(self, words: Mapping[str, str], language: Translates | None = None) -> str:
        return say(words, self.text, self.args, language)

    def group_label(self, words: Mapping[str, str], language: Translates | None = None) -> str | None:
        if self.group is None:
            return None
        return say(words, self.group_message, self.group_args, language)

    def full(self, words: Mapping[str, str], language: Translates | None = None) -> str:
        """The move's whole description: its group's words, then its own (``Hut F`` ``on B2 ...``)."""
        own = self.label(words, language)
        group = None if self.whole else self.group_label(words, language)
        return f"{group} {own}" if group else own


def say(
    words: Mapping[str, str],
    message_id: str,
    args: Mapping[str, Any] | None = None,
    language: Translates | None = None,
) -> str:
    """The text of ``message_id`` in a game's ``WORDS``, arguments put in (the id itself if
    missing), in ``language`` (``None``: English).  ``WORDS`` values are English message ids
    marked with :func:`N_`; an argument may be a :class:`Said` (a term)."""
    template = words.get(message_id)
    if template is None:
        return message_id
    return _in_words(template, args or {}, None, None, language)
