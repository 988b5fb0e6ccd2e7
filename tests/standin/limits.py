"""Discord's documented limits, checked the way Discord checks them.

Every check returns a list of :class:`Problem` (empty when the payload is fine).  A problem has the
JSON path of the offending field, Discord's error code string and message (used to build the
``50035 Invalid Form Body`` answer the real API gives), and a plain reason for the failing test.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from .model import walk_components

MESSAGE_CONTENT = 2000
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
SELECT_OPTIONS = 25
AUTOCOMPLETE_CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_PLACEHOLDER = 150
OPTION_LABEL = 100
OPTION_VALUE = 100
OPTION_DESCRIPTION = 100
FILES = 10
DEFAULT_FILE_SIZE = 10 * 1024 * 1024
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
MODAL_TITLE = 45
V2_TOTAL_COMPONENTS = 40
MODAL_COMPONENTS = 5
TEXT_INPUT_LABEL = 45
TEXT_INPUT_VALUE = 4000
TEXT_INPUT_PLACEHOLDER = 100
COMMAND_NAME_LENGTH = 32
COMMAND_DESCRIPTION = 100
COMMAND_SIZE = 8000  # names, descriptions and values of a slash command, its options and choices
COMMAND_OPTIONS = 25
COMMAND_CHOICES = 25
GLOBAL_CHAT_COMMANDS = 100

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
IS_COMPONENTS_V2 = 1 << 15
# The flags each kind of request may set (developers/resources/message, webhook; interactions).
CREATE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
CALLBACK_FLAGS = CREATE_FLAGS | EPHEMERAL  # a message in an interaction callback
DEFERRED_FLAGS = EPHEMERAL  # a deferred callback (type 5)
WEBHOOK_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
FOLLOWUP_FLAGS = WEBHOOK_FLAGS | EPHEMERAL
EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2  # what an edit may change (IS_COMPONENTS_V2: set only)
FLAG_NAMES = {
    1 << 0: "CROSSPOSTED",
    1 << 1: "IS_CROSSPOST",
    SUPPRESS_EMBEDS: "SUPPRESS_EMBEDS",
    1 << 3: "SOURCE_MESSAGE_DELETED",
    1 << 4: "URGENT",
    1 << 5: "HAS_THREAD",
    EPHEMERAL: "EPHEMERAL",
    LOADING: "LOADING",
    1 << 8: "FAILED_TO_MENTION_SOME_ROLES_IN_THREAD",
    SUPPRESS_NOTIFICATIONS: "SUPPRESS_NOTIFICATIONS",
    IS_VOICE_MESSAGE: "IS_VOICE_MESSAGE",
    1 << 14: "HAS_SNAPSHOT",
    IS_COMPONENTS_V2: "IS_COMPONENTS_V2",
}


def flag_names(flags: int) -> str:
    names = [FLAG_NAMES.get(1 << b, f"1<<{b}") for b in range(flags.bit_length()) if flags >> b & 1]
    return "|".join(names) or "none"


SELECT_TYPES = {3, 5, 6, 7, 8}
V2_TYPES = {9, 10, 11, 12, 13, 14, 17, 18}


@dataclass(frozen=True)
class Problem:
    path: tuple[str | int, ...]
    code: str
    message: str
    reason: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.reason}"


def _len_problem(path, value, limit, what, minimum=0) -> list[Problem]:
    if value is None:
        return []
    n = len(value)
    if n > limit:
        return [
            Problem(
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {limit} or fewer in length.",
                f"{what} is {n} long (limit {limit})",
            )
        ]
    if n < minimum:
        return [
            Problem(
                path,
                "BASE_TYPE_MIN_LENGTH",
                f"Must be {minimum} or more in length.",
                f"{what} is {n} long (minimum {minimum})",
            )
        ]
    return []


length_problem = _len_problem


def error_body(problems: list[Problem]) -> dict[str, Any]:
    """The ``50035 Invalid Form Body`` JSON Discord answers, errors nested by path."""
    errors: dict[str, Any] = {}
    for p in sorted(problems, key=lambda p: len(p.path)):
        node = errors
        for part in p.path:
            if "_errors" in node:
                break  # a field carries its own errors or its children's, never both
            node = node.setdefault(str(part), {})
        else:
            if not node or "_errors" in node:
                node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


# -- messages ----------------------------------------------------------------------------------------


def check_embeds(embeds: list[dict] | None, base=("embeds",)) -> list[Problem]:
    out: list[Problem] = []
    if not embeds:
        return out
    out += _len_problem(base, embeds, EMBEDS, "embeds list")
    total = 0
    for i, e in enumerate(embeds):
        p = (*base, i)
        out += _len_problem((*p, "title"), e.get("title"), EMBED_TITLE, f"embed {i} title")
        out += _len_problem(
            (*p, "description"), e.get("description"), EMBED_DESCRIPTION, f"embed {i} description"
        )
        fields = e.get("fields") or []
        out += _len_problem((*p, "fields"), fields, EMBED_FIELDS, f"embed {i} fields list")
        for j, f in enumerate(fields):
            out += _len_problem(
                (*p, "fields", j, "name"), f.get("name"), EMBED_FIELD_NAME, f"embed {i} field {j} name", 1
            )
            out += _len_problem(
                (*p, "fields", j, "value"), f.get("value"), EMBED_FIELD_VALUE, f"embed {i} field {j} value", 1
            )
            total += len(f.get("name") or "") + len(f.get("value") or "")
        footer = (e.get("footer") or {}).get("text")
        author = (e.get("author") or {}).get("name")
        out += _len_problem((*p, "footer", "text"), footer, EMBED_FOOTER, f"embed {i} footer")
        out += _len_problem((*p, "author", "name"), author, EMBED_AUTHOR, f"embed {i} author name")
        total += sum(len(x or "") for x in (e.get("title"), e.get("description"), footer, author))
    if total > EMBED_TOTAL:
        out.append(
            Problem(
                base,
                "MAX_EMBED_SIZE_EXCEEDED",
                "Embed size exceeds maximum size of 6000",
                f"embeds hold {total} characters in all (limit {EMBED_TOTAL})",
            )
        )
    return out


def _check_custom_id(path, cid, seen: set[str], what: str) -> list[Problem]:
    if not cid:
        return [Problem(path, "BASE_TYPE_REQUIRED", "This field is required", f"{what} has no custom_id")]
    out = _len_problem(path, cid, CUSTOM_ID, f"{what} custom_id {cid[:20]!r}...", 1)
    if cid in seen:
        out.append(
            Problem(
                path,
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
                f"custom_id {cid!r} is used twice in one message",
            )
        )
    seen.add(cid)
    return out


def check_button(b: dict, path, seen: set[str]) -> list[Problem]:
    out: list[Problem] = []
    style = b.get("style")
    what = f"button {b.get('label')!r}"
    if style not in (1, 2, 3, 4, 5, 6):
        out.append(
            Problem(
                (*path, "style"),
                "BASE_TYPE_CHOICES",
                "Value must be one of (1, 2, 3, 4, 5, 6).",
                f"{what} has style {style!r}",
            )
        )
    if style == 6:
        if not b.get("sku_id"):
            out.append(
                Problem(
                    (*path, "sku_id"),
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                    "premium button (style 6) has no sku_id",
                )
            )
        for key in ("custom_id", "label", "url", "emoji"):
            if b.get(key):
                out.append(
                    Problem(
                        (*path, key),
                        "BUTTON_COMPONENT_PREMIUM_FIELD_INVALID",
                        f"A premium button cannot have a {key}",
                        f"premium button (style 6) has a {key}; it may carry only its sku_id",
                    )
                )
    elif b.get("sku_id"):
        out.append(
            Problem(
                (*path, "sku_id"),
                "BUTTON_COMPONENT_SKU_ID_INVALID",
                "Only premium buttons can have a sku_id",
                f"{what} (style {style}) has a sku_id; only premium buttons (style 6) take one",
            )
        )
    if style == 5:
        if not b.get("url"):
            out.append(
                Problem(
                    (*path, "url"), "BASE_TYPE_REQUIRED", "This field is required", f"link {what} has no url"
                )
            )
        if b.get("custom_id"):
            out.append(
                Problem(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
                    "A link button cannot have a custom id",
                    f"link {what} has a custom_id",
                )
            )
    elif style != 6:
        out += _check_custom_id((*path, "custom_id"), b.get("custom_id"), seen, what)
        if b.get("url"):
            out.append(
                Problem(
                    (*path, "url"),
                    "BUTTON_COMPONENT_URL_INVALID",
                    "Only link buttons can have a url",
                    f"{what} (style {style}) has a url; only link buttons (style 5) take one",
                )
            )
    if style != 6 and not b.get("label") and not b.get("emoji"):
        out.append(
            Problem(
                path,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A label or emoji is required",
                "button has neither label nor emoji",
            )
        )
    out += _len_problem((*path, "label"), b.get("label"), BUTTON_LABEL, f"{what} label")
    return out


def check_select(s: dict, path, seen: set[str]) -> list[Problem]:
    out: list[Problem] = []
    what = f"select {s.get('custom_id')!r}"
    out += _check_custom_id((*path, "custom_id"), s.get("custom_id"), seen, "select")
    out += _len_problem(
        (*path, "placeholder"), s.get("placeholder"), SELECT_PLACEHOLDER, f"{what} placeholder"
    )
    lo, hi = s.get("min_values", 1), s.get("max_values", 1)
    if not 0 <= lo <= 25:
        out.append(
            Problem(
                (*path, "min_values"),
                "NUMBER_TYPE_MAX",
                "int value should be between 0 and 25.",
                f"{what} min_values is {lo}",
            )
        )
    if not 1 <= hi <= 25:
        out.append(
            Problem(
                (*path, "max_values"),
                "NUMBER_TYPE_MAX",
                "int value should be between 1 and 25.",
                f"{what} max_values is {hi}",
            )
        )
    if lo > hi:
        out.append(
            Problem(
                (*path, "min_values"),
                "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                "min_values must be less than or equal to max_values",
                f"{what} min_values {lo} > max_values {hi}",
            )
        )
    if s.get("type") == 3:
        opts = s.get("options") or []
        if not opts:
            out.append(
                Problem(
                    (*path, "options"),
                    "BASE_TYPE_MIN_LENGTH",
                    "Must be 1 or more in length.",
                    f"{what} has no options",
                )
            )
        out += _len_problem((*path, "options"), opts, SELECT_OPTIONS, f"{what} options list")
        if opts and hi > len(opts):
            out.append(
                Problem(
                    (*path, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                    "max_values must be less than or equal to the number of options",
                    f"{what} max_values {hi} exceeds its {len(opts)} options",
                )
            )
        values: set[str] = set()
        for i, o in enumerate(opts):
            op = (*path, "options", i)
            out += _len_problem((*op, "label"), o.get("label"), OPTION_LABEL, f"{what} option {i} label", 1)
            out += _len_problem((*op, "value"), o.get("value"), OPTION_VALUE, f"{what} option {i} value", 1)
            out += _len_problem(
                (*op, "description"),
                o.get("description"),
                OPTION_DESCRIPTION,
                f"{what} option {i} description",
            )
            if o.get("value") in values:
                out.append(
                    Problem(
                        (*op, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select component option values must be unique",
                        f"{what} repeats value {o.get('value')!r}",
                    )
                )
            values.add(o.get("value"))
    return out


def check_text_input(t: dict, path, seen: set[str]) -> list[Problem]:
    what = f"text input {t.get('custom_id')!r}"
    out = _check_custom_id((*path, "custom_id"), t.get("custom_id"), seen, "text input")
    out += _len_problem((*path, "label"), t.get("label"), TEXT_INPUT_LABEL, f"{what} label")
    out += _len_problem((*path, "value"), t.get("value"), TEXT_INPUT_VALUE, f"{what} value")
    out += _len_problem(
        (*path, "placeholder"), t.get("placeholder"), TEXT_INPUT_PLACEHOLDER, f"{what} placeholder"
    )
    if t.get("style", 1) not in (1, 2):
        out.append(
            Problem((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).", f"{what} style")
        )
    return out


def check_components(
    components: list[dict] | None, *, v2: bool = False, modal: bool = False, base=("components",)
) -> list[Problem]:
    """Action rows of buttons and selects (or a modal's rows of text inputs)."""
    out: list[Problem] = []
    if not components:
        return out
    seen: set[str] = set()
    if not v2:
        limit = MODAL_COMPONENTS if modal else ACTION_ROWS
        if len(components) > limit:
            out.append(
                Problem(
                    base,
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {limit} or fewer in length.",
                    f"{len(components)} action rows (limit {limit})",
                )
            )
    for i, comp in enumerate(components):
        out += _check_component(comp, (*base, i), seen, v2=v2, modal=modal, top=True)
    return out


def _check_component(comp: dict, path, seen, *, v2: bool, modal: bool, top: bool) -> list[Problem]:
    out: list[Problem] = []
    t = comp.get("type")
    if t == 1:
        children = comp.get("components") or []
        if not children:
            out.append(
                Problem(
                    (*path, "components"),
                    "BASE_TYPE_MIN_LENGTH",
                    "Must be 1 or more in length.",
                    f"action row {path[-1]} is empty",
                )
            )
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if len(buttons) > BUTTONS_PER_ROW:
            out.append(
                Problem(
                    (*path, "components"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 5 or fewer in length.",
                    f"action row {path[-1]} holds {len(buttons)} buttons (limit {BUTTONS_PER_ROW})",
                )
            )
        if selects and len(children) > 1:
            out.append(
                Problem(
                    (*path, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                    f"action row {path[-1]} holds a select with {len(children) - 1} other component(s); "
                    "a select must be alone in its row",
                )
            )
        for j, c in enumerate(children):
            out += _check_component(c, (*path, "components", j), seen, v2=v2, modal=modal, top=False)
    elif t == 2:
        if top and not v2:
            out.append(
                Problem(
                    path,
                    "COMPONENT_TYPE_INVALID",
                    "Component type invalid",
                    "a button must sit in an action row",
                )
            )
        out += check_button(comp, path, seen)
    elif t in SELECT_TYPES:
        if top and not v2 and not modal:
            out.append(
                Problem(
                    path,
                    "COMPONENT_TYPE_INVALID",
                    "Component type invalid",
                    "a select must sit in an action row",
                )
            )
        out += check_select(comp, path, seen)
    elif t == 4:
        if not modal:
            out.append(
                Problem(
                    path,
                    "COMPONENT_TYPE_INVALID",
                    "Component type invalid",
                    "text inputs belong in modals only",
                )
            )
        out += check_text_input(comp, path, seen)
    elif t == 18 and modal:  # label wrapping one component
        out += _len_problem((*path, "label"), comp.get("label"), TEXT_INPUT_LABEL, "label")
        inner = comp.get("component")
        if inner:
            out += _check_component(inner, (*path, "component"), seen, v2=v2, modal=modal, top=False)
    elif t in V2_TYPES:
        if not v2 and not modal:
            out.append(
                Problem(
                    path,
                    "COMPONENT_TYPE_INVALID",
                    "Component type invalid",
                    f"component type {t} needs the IS_COMPONENTS_V2 flag",
                )
            )
        for key in ("components",):
            for j, c in enumerate(comp.get(key) or []):
                out += _check_component(c, (*path, key, j), seen, v2=v2, modal=modal, top=False)
        if comp.get("accessory"):
            out += _check_component(
                comp["accessory"], (*path, "accessory"), seen, v2=v2, modal=modal, top=False
            )
    else:
        out.append(
            Problem(
                (*path, "type"),
                "COMPONENT_TYPE_INVALID",
                "Component type invalid",
                f"unknown component type {t!r}",
            )
        )
    return out


def check_message(
    data: dict,
    files: list[tuple[str, bytes]],
    *,
    file_size_limit: int,
    existing: dict | None = None,
    base: tuple[str, ...] = (),
    flags: int | None = None,
) -> list[Problem]:
    """A message to create (``existing`` None) or an edit merged onto ``existing``.

    ``base`` is where the message sits in the body (``("data",)`` in an interaction callback);
    ``flags`` the message flags this request may set (for a new message).
    """
    out = _check_message(data, files, file_size_limit=file_size_limit, existing=existing)
    out += check_allowed_mentions(data.get("allowed_mentions"))
    if flags is not None:
        out += check_flags(data.get("flags"), flags)
    return [Problem((*base, *p.path), p.code, p.message, p.reason) for p in out]


NONCE = 25
"""Characters a message's ``nonce`` may have (Discord: "up to 25 characters")."""


def check_nonce(value: Any) -> list[Problem]:
    """A message's ``nonce``: a string longer than :data:`NONCE` is refused (an integer is one of
    64 bits, which the OpenAPI description checks, and never that long)."""
    return _len_problem(("nonce",), value, NONCE, "nonce") if isinstance(value, str) else []


def check_flags(
    value: Any, allowed: int, path: tuple = ("flags",), what: str = "this request"
) -> list[Problem]:
    """Message flags outside ``allowed`` (the documented set for the request) are refused."""
    extra = int(value or 0) & ~allowed
    if not extra:
        return []
    return [
        Problem(
            path,
            "MESSAGE_FLAGS_INVALID",
            "Invalid message flags",
            f"flags {flag_names(extra)} cannot be set by {what} (only {flag_names(allowed)})",
        )
    ]


def check_allowed_mentions(allowed: dict | None, path: tuple = ("allowed_mentions",)) -> list[Problem]:
    """``parse`` and an explicit list of the same kind are mutually exclusive (an empty list is fine)."""
    out: list[Problem] = []
    if not isinstance(allowed, dict):
        return out
    for kind in ("users", "roles"):
        if kind in (allowed.get("parse") or []) and allowed.get(kind):
            out.append(
                Problem(
                    path,
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                    f'allowed_mentions has parse ["{kind}"] and a {kind} list; they are mutually exclusive',
                )
            )
    return out


def edit_flags(old: int, requested: Any) -> tuple[int, int]:
    """The flags after an edit asking for ``requested``, and the bits Discord ignores.

    An edit may set or clear SUPPRESS_EMBEDS and set IS_COMPONENTS_V2; other bits keep their value
    (the documentation: unsupported flag changes are ignored without error).  Bits asked for that are
    not set and cannot be set are returned as ignored.
    """
    if requested is None:
        return old, 0
    requested = int(requested)
    new = (old & ~SUPPRESS_EMBEDS) | (requested & SUPPRESS_EMBEDS) | (requested & IS_COMPONENTS_V2)
    return new, requested & ~old & ~EDIT_FLAGS


def _check_message(
    data: dict, files: list[tuple[str, bytes]], *, file_size_limit: int, existing: dict | None
) -> list[Problem]:
    out: list[Problem] = []
    merged = dict(existing or {})
    merged.update({k: v for k, v in data.items()})
    content = merged.get("content") or ""
    flags = int(merged.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    out += _len_problem(("content",), content, MESSAGE_CONTENT, "message content")
    out += check_embeds(data.get("embeds"))
    out += check_components(data.get("components"), v2=v2)
    if v2:
        count = len(walk_components(data.get("components") or []))
        if count > V2_TOTAL_COMPONENTS:
            out.append(
                Problem(
                    ("components",),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 40 or fewer in length.",
                    f"{count} components in all (limit {V2_TOTAL_COMPONENTS} with IS_COMPONENTS_V2)",
                )
            )
    if v2 and content:
        out.append(
            Problem(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                "content is not allowed with the IS_COMPONENTS_V2 flag",
            )
        )
    if len(files) > FILES:
        out.append(
            Problem(
                ("files",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {FILES} or fewer in length.",
                f"{len(files)} files attached (limit {FILES})",
            )
        )
    for i, (name, blob) in enumerate(files):
        if len(blob) > file_size_limit:
            out.append(
                Problem(
                    (f"files[{i}]",),
                    "ENTITY_TOO_LARGE",
                    "Request entity too large",
                    f"file {name!r} is {len(blob)} bytes (limit {file_size_limit})",
                )
            )
    has_attachments = bool(files) or bool(merged.get("attachments"))
    if not (
        content.strip()
        or merged.get("embeds")
        or has_attachments
        or merged.get("components")
        or merged.get("poll")
        or merged.get("sticker_ids")
    ):
        out.append(
            Problem(
                (),
                "EMPTY_MESSAGE",
                "Cannot send an empty message",
                "the message has no content, embeds, files, components, poll or sticker",
            )
        )
    return out


# -- interactions -------------------------------------------------------------------------------------


def check_choices(
    choices: list[dict] | None, base=("data", "choices"), option_type: int | None = None
) -> list[Problem]:
    """Autocomplete choices; ``option_type`` is the type of the option they fill in."""
    out: list[Problem] = []
    choices = choices or []
    out += _len_problem(base, choices, AUTOCOMPLETE_CHOICES, "autocomplete choices list")
    for i, c in enumerate(choices):
        out += _len_problem((*base, i, "name"), c.get("name"), CHOICE_NAME, f"choice {i} name", 1)
        out += check_choice_value(c.get("value"), option_type, (*base, i, "value"), f"choice {i}")
        if isinstance(c.get("value"), str):
            out += _len_problem((*base, i, "value"), c["value"], CHOICE_VALUE, f"choice {i} value")
    return out


def check_modal(data: dict, base=("data",)) -> list[Problem]:
    out = _check_custom_id((*base, "custom_id"), data.get("custom_id"), set(), "modal")
    out += _len_problem((*base, "title"), data.get("title"), MODAL_TITLE, "modal title", 1)
    comps = data.get("components") or []
    if not comps:
        out.append(
            Problem(
                (*base, "components"),
                "BASE_TYPE_MIN_LENGTH",
                "Must be 1 or more in length.",
                "the modal has no components",
            )
        )
    out += check_components(comps, modal=True, base=(*base, "components"))
    return out


# -- application commands -----------------------------------------------------------------------------


def check_commands(commands: list[dict], *, is_global: bool) -> list[Problem]:
    out: list[Problem] = []
    names: set[tuple[int, str]] = set()
    chat = 0
    for i, cmd in enumerate(commands):
        kind = cmd.get("type", 1)
        key = (kind, cmd.get("name"))
        if key in names:
            out.append(
                Problem(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique",
                    f"command name {cmd.get('name')!r} is used twice",
                )
            )
        names.add(key)
        if kind == 1:
            chat += 1
            out += _check_command_like(cmd, (i,), f"/{cmd.get('name')}", depth=0)
            size = command_size(cmd)
            if size > COMMAND_SIZE:
                out.append(
                    Problem(
                        (i,),
                        "APPLICATION_COMMAND_TOO_LARGE",
                        f"Command exceeds maximum size ({COMMAND_SIZE})",
                        f"/{cmd.get('name')} counts {size} characters of names, descriptions and values "
                        f"(limit {COMMAND_SIZE})",
                    )
                )
        else:
            out += _len_problem((i, "name"), cmd.get("name"), 32, f"command {cmd.get('name')!r} name", 1)
    if chat > GLOBAL_CHAT_COMMANDS:
        out.append(
            Problem(
                (),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 100 or fewer in length.",
                f"{chat} chat-input commands (limit {GLOBAL_CHAT_COMMANDS})",
            )
        )
    return out


def _name_char(c: str) -> bool:
    """A character of ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$`` (Discord's command naming rule)."""
    if c in "-_'" or unicodedata.category(c)[0] in "LN":
        return True
    n = ord(c)
    devanagari = 0x0900 <= n <= 0x097F or 0xA8E0 <= n <= 0xA8FF or 0x11B00 <= n <= 0x11B5F
    thai = 0x0E00 <= n <= 0x0E7F
    return devanagari or thai


def valid_command_name(name: Any) -> bool:
    """Discord's rule for slash command and option names: 1-32 of letters, numbers, ``-``, ``_``, ``'``
    and Devanagari or Thai characters (their combining marks included), lowercase where a letter has
    a lowercase form."""
    return (
        isinstance(name, str)
        and 1 <= len(name) <= COMMAND_NAME_LENGTH
        and all(_name_char(c) for c in name)
        and name == name.lower()
    )


def _check_name(path, name, what) -> list[Problem]:
    if not valid_command_name(name):
        return [
            Problem(
                path,
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
                f"{what} name {name!r} must be 1-32 lowercase letters, numbers, -, _, ' or "
                "Devanagari/Thai characters",
            )
        ]
    return []


def _longest(obj: dict, key: str) -> int:
    """A field's length for the size limit: the longest of its value and its localizations."""
    values = [obj.get(key)] + list((obj.get(f"{key}_localizations") or {}).values())
    return max((len(str(v)) for v in values if v is not None), default=0)


def command_size(cmd: dict) -> int:
    """The characters a slash command counts against Discord's 8,000: names, descriptions, values."""
    total = _longest(cmd, "name") + _longest(cmd, "description")
    for o in cmd.get("options") or []:
        total += command_size(o)
    for c in cmd.get("choices") or []:
        total += _longest(c, "name") + len(str(c.get("value", "")))
    return total


INT53 = 2**53 - 1


def check_choice_value(value: Any, option_type: Any, path, what: str) -> list[Problem]:
    """A choice's value must have its option's type: text for STRING, integer for INTEGER..."""
    if option_type == 3 and not isinstance(value, str):
        return [
            Problem(
                path,
                "BASE_TYPE_STRING",
                f'Could not interpret "{value}" as string.',
                f"{what} value {value!r} is not text, but the option is a STRING option",
            )
        ]
    if option_type == 4 and (isinstance(value, bool) or not isinstance(value, int) or abs(value) > INT53):
        return [
            Problem(
                path,
                "NUMBER_TYPE_COERCE",
                f'Value "{value}" is not int.',
                f"{what} value {value!r} is not an integer, but the option is an INTEGER option",
            )
        ]
    if option_type == 10 and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return [
            Problem(
                path,
                "NUMBER_TYPE_COERCE",
                f'Value "{value}" is not a valid number.',
                f"{what} value {value!r} is not a number, but the option is a NUMBER option",
            )
        ]
    return []


# Discord's available locales (developers/reference#locales): the keys a localization dictionary may have.
LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi th "
    "zh-CN ja zh-TW ko".split()
)


def _check_localizations(obj: dict, path, what: str, *, name_rule: str) -> list[Problem]:
    """``name_localizations`` and ``description_localizations``: keys among Discord's locales, and
    values under the same rules as the field they translate (``name_rule``: ``"command"`` for a
    slash command or option name, ``"choice"`` for a choice's name, 1-100 characters)."""
    out: list[Problem] = []
    for key, rule in (("name_localizations", name_rule), ("description_localizations", "description")):
        table = obj.get(key)
        if table is None:
            continue
        if not isinstance(table, dict):
            out.append(
                Problem(
                    (*path, key),
                    "DICT_TYPE_CONVERT",
                    "Only dictionaries may be used in a DictType",
                    f"{what} {key} is not a dictionary",
                )
            )
            continue
        for locale, value in table.items():
            where = (*path, key, locale)
            if locale not in LOCALES:
                out.append(
                    Problem(
                        where,
                        "ENUM_TYPE_COERCE",
                        f'Value "{locale}" is not a valid enum value.',
                        f"{what} {key} has a key {locale!r} that is not one of Discord's locales",
                    )
                )
            if rule == "command":
                out += _check_name(where, value, f"{what} ({locale})")
            else:
                limit = COMMAND_DESCRIPTION if rule == "description" else CHOICE_NAME
                out += _len_problem(where, value, limit, f"{what} {key}[{locale}]", 1)
    return out


def _localized_option_names(options: list[dict], path, what: str) -> list[Problem]:
    """A localized option name must differ from every default option name of the command and from
    every other option name in that locale (application-commands#localization)."""
    out: list[Problem] = []
    defaults = {o.get("name") for o in options}
    per_locale: dict[str, str] = {}
    for j, o in enumerate(options):
        for locale, value in (o.get("name_localizations") or {}).items():
            clash = (value in defaults and value != o.get("name")) or per_locale.get(f"{locale}:{value}")
            if clash:
                out.append(
                    Problem(
                        (*path, "options", j, "name_localizations", locale),
                        "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                        "Option name already exists",
                        f"{what}: the {locale} name {value!r} of option {o.get('name')!r} is another option's name",
                    )
                )
            per_locale[f"{locale}:{value}"] = str(o.get("name"))
    return out


def _check_command_like(cmd: dict, path, what: str, depth: int) -> list[Problem]:
    out = _check_name((*path, "name"), cmd.get("name"), what)
    out += _check_localizations(cmd, path, what, name_rule="command")
    desc = cmd.get("description")
    out += _len_problem((*path, "description"), desc or "", COMMAND_DESCRIPTION, f"{what} description", 1)
    options = cmd.get("options") or []
    out += _len_problem((*path, "options"), options, COMMAND_OPTIONS, f"{what} options list")
    out += _localized_option_names(options, path, what)
    seen: set[str] = set()
    required_done = False
    subs = [o for o in options if o.get("type") in (1, 2)]
    if subs and len(subs) != len(options):
        out.append(
            Problem(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-command and sub-command group option types are mutually exclusive to all other types",
                f"{what} mixes subcommands with plain options",
            )
        )
    for j, o in enumerate(options):
        op = (*path, "options", j)
        oname = o.get("name")
        sub_what = f"{what} {oname}"
        if oname in seen:
            out.append(
                Problem(
                    (*op, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    "Option name already exists",
                    f"{what} has two options named {oname!r}",
                )
            )
        seen.add(oname)
        t = o.get("type")
        if t in (1, 2):
            if t == 2 and depth >= 1 or t == 1 and depth >= 2:
                out.append(
                    Problem(
                        (*op, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Option type is invalid here",
                        f"{sub_what} is nested too deeply",
                    )
                )
            if t == 2 and any(s.get("type") != 1 for s in o.get("options") or []):
                out.append(
                    Problem(
                        (*op, "options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups may only contain sub-commands",
                        f"group {sub_what} holds something other than subcommands",
                    )
                )
            out += _check_command_like(o, op, sub_what, depth + 1)
            continue
        out += _check_name((*op, "name"), oname, f"option {sub_what}")
        out += _check_localizations(o, op, f"option {sub_what}", name_rule="command")
        out += _len_problem(
            (*op, "description"),
            o.get("description") or "",
            COMMAND_DESCRIPTION,
            f"option {sub_what} description",
            1,
        )
        if o.get("required"):
            if required_done:
                out.append(
                    Problem(
                        (*op, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                        f"required option {sub_what} follows an optional one",
                    )
                )
        else:
            required_done = True
        choices = o.get("choices") or []
        out += _len_problem((*op, "choices"), choices, COMMAND_CHOICES, f"option {sub_what} choices list")
        for k, c in enumerate(choices):
            out += _len_problem(
                (*op, "choices", k, "name"),
                c.get("name"),
                CHOICE_NAME,
                f"option {sub_what} choice {k} name",
                1,
            )
            out += _check_localizations(
                c, (*op, "choices", k), f"option {sub_what} choice {k}", name_rule="choice"
            )
            out += check_choice_value(
                c.get("value"), t, (*op, "choices", k, "value"), f"option {sub_what} choice {k}"
            )
            if isinstance(c.get("value"), str):
                out += _len_problem(
                    (*op, "choices", k, "value"),
                    c["value"],
                    CHOICE_VALUE,
                    f"option {sub_what} choice {k} value",
                )
        if choices and o.get("autocomplete"):
            out.append(
                Problem(
                    (*op, "autocomplete"),
                    "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES",
                    "Autocomplete cannot be set with choices",
                    f"option {sub_what} has choices and autocomplete",
                )
            )
    return out
