"""Discord's OpenAPI description (vendored in ``openapi/``), used to check the stand-in's traffic.

Every request body the stand-in receives is validated against the request schema of its route, and
every answer it sends against the response schema for that status.  Validators are built once per
process and cached per (route, content) pair, and each ``$ref`` is resolved once.

The description is large and made of unions (``oneOf``/``anyOf`` over a dozen component or option
shapes), which makes a plain JSON-schema validator slow.  :class:`_Validator` extends jsonschema's
Draft 2020-12 validator with the union keywords implemented faster, with the same results: a branch
whose ``type`` discriminator (``properties.type.enum``) cannot match the instance is skipped, since it
could only fail, and a union of plain constants is a membership test.  Following the description's
README, ``oneOf`` is read as "one of these shapes", like ``anyOf``.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema._utils import equal
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .limits import Problem

SPEC_PATH = Path(__file__).parent / "openapi" / "openapi.json"
URI = "urn:discord-openapi"
_INT_STRING = re.compile(r"^-?\d+$")


# -- a faster validator with the same answers ------------------------------------------------------------


@dataclass(frozen=True)
class _Branch:
    kind: str  # "const" (value), "null", "type" (allowed discriminator values), "any"
    values: tuple = ()


_branch_cache: dict[int, tuple[list, list[_Branch]]] = {}


def _describe_branch(validator, sub: dict) -> _Branch:
    if set(sub) <= {"const", "title", "description"} and "const" in sub:
        return _Branch("const", (sub["const"],))
    schema = sub
    if "$ref" in sub:
        schema = validator._resolver.lookup(sub["$ref"]).contents
    if schema.get("type") == "null" and len(schema) == 1:
        return _Branch("null")
    disc = (schema.get("properties") or {}).get("type")
    if isinstance(disc, dict):
        if "enum" in disc:
            return _Branch("type", tuple(disc["enum"]))
        if "const" in disc:
            return _Branch("type", (disc["const"],))
    return _Branch("any")


def _branches(validator, subschemas: list) -> list[_Branch]:
    hit = _branch_cache.get(id(subschemas))
    if hit is not None and hit[0] is subschemas:
        return hit[1]
    described = [_describe_branch(validator, s) for s in subschemas]
    _branch_cache[id(subschemas)] = (subschemas, described)  # the list is kept alive with its id
    return described


def _possible(branch: _Branch, instance: Any) -> bool:
    if branch.kind == "const":
        return equal(branch.values[0], instance)
    if branch.kind == "null":
        return instance is None
    if branch.kind == "type" and isinstance(instance, dict) and "type" in instance:
        return any(equal(v, instance["type"]) for v in branch.values)
    return True


def _candidates(validator, subschemas: list, instance: Any) -> tuple[list[int], list[_Branch]]:
    described = _branches(validator, subschemas)
    return [i for i, b in enumerate(described) if _possible(b, instance)], described


def _no_branch(instance: Any, described: list[_Branch]) -> ValidationError:
    if all(b.kind == "const" for b in described):
        return ValidationError(f"{instance!r} is not one of {[b.values[0] for b in described]!r}")
    allowed = sorted({v for b in described if b.kind == "type" for v in b.values}, key=repr)
    if isinstance(instance, dict) and "type" in instance and allowed:
        return ValidationError(f"type {instance['type']!r} is not one of the allowed types {allowed!r}")
    return ValidationError(f"{instance!r} is not valid under any of the given schemas")


_const_cache: dict[int, tuple[list, frozenset | None]] = {}


def _constants(validator, subschemas: list) -> frozenset | None:
    """For a union of plain constants (an enumeration), the set of (type, value) it allows."""
    hit = _const_cache.get(id(subschemas))
    if hit is not None and hit[0] is subschemas:
        return hit[1]
    described = _branches(validator, subschemas)
    values = None
    if all(b.kind == "const" and isinstance(b.values[0], (int, str)) for b in described):
        values = frozenset((type(b.values[0]), b.values[0]) for b in described)
    _const_cache[id(subschemas)] = (subschemas, values)
    return values


def _one_of(validator, one_of, instance, schema):
    """As ``anyOf``: the description's README says both kinds of union mean "one of these shapes"
    (it writes ``anyOf`` only where it cannot write ``oneOf``), and with integer strings accepted as
    integers a value such as a nonce ``"123"`` fits two shapes at once."""
    constants = _constants(validator, one_of)
    if constants is not None:
        if isinstance(instance, (int, str)) and (type(instance), instance) in constants:
            return
        yield _no_branch(instance, _branches(validator, one_of))
        return
    yield from _any_of(validator, one_of, instance, schema)


def _any_of(validator, any_of, instance, schema):
    indices, described = _candidates(validator, any_of, instance)
    if not indices:
        yield _no_branch(instance, described)
        return
    all_errors: list[ValidationError] = []
    for index in indices:
        errors = list(validator.descend(instance, any_of[index], schema_path=index))
        if not errors:
            return
        all_errors.extend(errors)
    yield ValidationError(f"{instance!r} is not valid under any of the given schemas", context=all_errors)


def _lenient_integer(checker, instance) -> bool:
    """The description's convention: an integer field also takes a string that parses as one."""
    if isinstance(instance, str):
        return bool(_INT_STRING.match(instance))
    return Draft202012Validator.TYPE_CHECKER.is_type(instance, "integer")


def _validator_class():
    """A validator class with its own memory of objects already found valid against a named schema.

    The same objects come back again and again (a message's author, a member, a button row), and an
    object's validity against a schema depends on nothing else, so each is checked once.
    """
    valid: set[tuple[str, str]] = set()
    # Where each reference leads, looked up once: the description is one document, so a reference
    # from anywhere in it (by its base URI) always resolves to the same schema.
    found: dict[tuple[str, str], Any] = {}

    def follow(validator, ref, instance):
        key = (str(validator._resolver._base_uri), ref)
        resolved = found.get(key)
        if resolved is None:
            resolved = found[key] = validator._resolver.lookup(ref)
        return validator.descend(instance, resolved.contents, resolver=resolved.resolver)

    def ref(validator, ref, instance, schema):
        if not isinstance(instance, dict) or not ref.startswith("#/components/schemas/"):
            yield from follow(validator, ref, instance)
            return
        key = (ref, json.dumps(instance, sort_keys=True, default=str))
        if key in valid:
            return
        errors = list(follow(validator, ref, instance))
        if errors:
            yield from errors
            return
        if len(valid) > 50_000:
            valid.clear()
        valid.add(key)

    return validators.extend(
        Draft202012Validator,
        validators={"oneOf": _one_of, "anyOf": _any_of, "$ref": ref},
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _lenient_integer),
    )


# -- the description -------------------------------------------------------------------------------------


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass(frozen=True)
class SchemaError:
    """One way a body breaks the description: where, the rule, and Discord's error for it."""

    path: tuple[str | int, ...]
    rule: str  # the schema path, e.g. "components/items/oneOf/0/..."
    message: str  # the validator's own words
    code: str  # Discord's error code for this kind of rule
    discord_message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.message} (rule {self.rule})"

    def problem(self) -> Problem:
        return Problem(self.path, self.code, self.discord_message, f"{self} [OpenAPI]")


def _discord_error(error: ValidationError) -> tuple[str, str]:
    """Discord's error code and message for the rule ``error`` broke (its 50035 vocabulary)."""
    kind, value, inst = error.validator, error.validator_value, error.instance
    if kind in ("maxLength", "maxItems"):
        return "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
    if kind in ("minLength", "minItems"):
        return "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
    if kind == "required":
        return "BASE_TYPE_REQUIRED", "This field is required"
    if kind == "maximum":
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
    if kind == "minimum":
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
    if kind in ("enum", "const") or (kind in ("oneOf", "anyOf") and not error.context):
        return "BASE_TYPE_CHOICES", "Value must be one of the allowed values."
    if kind == "uniqueItems":
        return "SET_TYPE_ALREADY_CONTAINS_VALUE", "The set already contains this value"
    if kind == "pattern":
        return "NUMBER_TYPE_COERCE", f'Value "{inst}" is not snowflake.'
    if kind == "type":
        types = value if isinstance(value, list) else [value]
        if "integer" in types or "number" in types:
            return "NUMBER_TYPE_COERCE", f'Value "{inst}" is not int.'
        if "string" in types:
            return "BASE_TYPE_STRING", f'Could not interpret "{inst}" as string.'
        if "boolean" in types:
            return "BASE_TYPE_BOOLEAN", "Must be either true or false."
        if "object" in types:
            return "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
        if "array" in types:
            return "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"
    return f"STANDIN_SCHEMA_{kind.upper()}", f"Invalid value ({kind})"


# Where the description and Discord's documentation disagree, the documentation wins (as the
# description's README asks).  Each entry: the JSON pointer patched, the schema put there, and why.
DOCS_OVER_SPEC: list[tuple[str, dict, str]] = [
    (
        "components/schemas/InnerErrors/properties/_errors/items",
        {
            "type": "object",
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
            "required": ["code", "message"],
        },
        "the documented form errors (developers/reference, Error Messages) carry string codes such as "
        "BASE_TYPE_REQUIRED; the description types them as integers",
    ),
    (
        "components/schemas/RatelimitedResponse/allOf/0",
        {
            "type": "object",
            "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
            "required": ["message"],
        },
        "the documented rate-limit answer has 'code?' only for some limits, and its examples have none "
        "(developers/topics/rate-limits, Rate Limit Response Structure)",
    ),
    (
        "components/schemas/MessageAttachmentRequest/properties/id",
        {"anyOf": [{"$ref": "#/components/schemas/SnowflakeType"}, {"type": "integer", "minimum": 0}]},
        "the documented attachment request takes 'snowflake or number' as id: for a new file, the n of "
        "files[n] (developers/resources/message, Attachment Request Structure)",
    ),
    (
        "components/schemas/ChannelTypes/oneOf/12",
        {"title": "GUILD_MEDIA", "const": 16},
        "the documented channel types include GUILD_MEDIA (16), a channel of threads like a forum "
        "(developers/resources/channel, Channel Types); the description lists up to 15 (discord.py "
        "offers forum options as types 15 and 16)",
    ),
]


# In requests only: Discord takes an id as an integer as well as a string (developers/reference, ID
# Serialization: "Internally, Discord stores IDs as integer snowflakes"); discord.py sends integers,
# e.g. in allowed_mentions.users.  Answers always carry strings.
REQUESTS_OVER_SPEC: list[tuple[str, dict, str]] = [
    (
        "components/schemas/SnowflakeType",
        {
            "anyOf": [
                {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
                {"type": "integer", "minimum": 0},
            ]
        },
        "ids are accepted as integers in requests (developers/reference, ID Serialization)",
    ),
]


def _patch(doc: dict, patches: list[tuple[str, dict, str]]) -> None:
    for pointer, schema, _why in patches:
        *parents, last = pointer.split("/")
        node = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list) and int(last) == len(node):
            node.append(schema)  # a documented value the description lacks
        elif isinstance(node, list):
            node[int(last)] = schema
        else:
            node[last] = schema


class Spec:
    """Discord's OpenAPI description, with cached validators per route."""

    def __init__(self, path: Path = SPEC_PATH):
        text = path.read_text()
        self.doc = json.loads(text)  # what answers are checked against
        _patch(self.doc, DOCS_OVER_SPEC)
        self.request_doc = json.loads(text)  # what requests are checked against
        _patch(self.request_doc, DOCS_OVER_SPEC + REQUESTS_OVER_SPEC)
        self.registry = Registry().with_resource(
            URI, Resource.from_contents(self.doc, default_specification=DRAFT202012)
        )
        self.request_registry = Registry().with_resource(
            URI, Resource.from_contents(self.request_doc, default_specification=DRAFT202012)
        )
        self.seconds = 0.0  # CPU time spent validating, in this process
        self.validations = 0
        self._validators: dict[tuple, Any] = {}
        # Two documents, two memories: an object valid in a request need not be valid in an answer.
        self._classes = {"request": _validator_class(), "response": _validator_class()}

    # -- locating schemas --------------------------------------------------------------------------

    def operation(self, method: str, template: str) -> dict | None:
        return (self.doc["paths"].get(template) or {}).get(method.lower())

    def _validator(self, key: tuple, pointer: str | None):
        if key not in self._validators:
            registry = self.request_registry if key[0] == "request" else self.registry
            cls = self._classes[key[0]]
            self._validators[key] = (
                None if pointer is None else cls({"$ref": URI + pointer}, registry=registry)
            )
        return self._validators[key]

    def request_validator(self, method: str, template: str):
        """The validator of the JSON body (also ``payload_json`` of a multipart body), or None."""
        key = ("request", method, template)
        if key in self._validators:
            return self._validators[key]
        op = self.operation(method, template)
        body = (op or {}).get("requestBody", {}).get("content", {})
        pointer = None
        if "application/json" in body:
            pointer = _pointer(
                "paths", template, method.lower(), "requestBody", "content", "application/json", "schema"
            )
        return self._validator(key, pointer)

    def takes_body(self, method: str, template: str) -> bool:
        return bool((self.operation(method, template) or {}).get("requestBody"))

    def response_entry(self, method: str, template: str, status: int) -> tuple[dict | None, str | None]:
        """The response object for ``status`` (exact, then ``4XX``/``5XX``) and a pointer to it."""
        op = self.operation(method, template) or {}
        responses = op.get("responses", {})
        for code in (str(status), f"{str(status)[0]}XX", "default"):
            if code in responses:
                entry = responses[code]
                pointer = _pointer("paths", template, method.lower(), "responses", code)
                if "$ref" in entry:
                    pointer = entry["$ref"]
                    entry = self.registry.resolver(URI).lookup(URI + pointer).contents
                return entry, pointer
        return None, None

    def response_validator(self, method: str, template: str, status: int):
        key = ("response", method, template, status)
        if key in self._validators:
            return self._validators[key]
        entry, pointer = self.response_entry(method, template, status)
        schema_pointer = None
        if entry is not None and "application/json" in entry.get("content", {}):
            schema_pointer = pointer + "/content/application~1json/schema"
        return self._validator(key, schema_pointer)

    # -- checking ------------------------------------------------------------------------------------

    def _errors(self, validator, instance, registry: Registry) -> list[SchemaError]:
        started = time.thread_time()  # CPU time: other processes on the machine do not count
        try:
            error = best_match(validator.iter_errors(instance))
        finally:
            self.seconds += time.thread_time() - started
            self.validations += 1
        if error is None:
            return []
        while error.context:  # inside a union, the branch that came closest says what is wrong
            error = best_match(error.context)
        code, message = _discord_error(error)
        rule = self._rule(registry, validator.schema["$ref"], list(error.absolute_schema_path))
        return [SchemaError(tuple(error.absolute_path), rule, error.message[:200], code, message)]

    def _rule(self, registry: Registry, root: str, path: list) -> str:
        """The broken rule as ``Schema: keyword/...``, naming the innermost named schema on the path."""
        resolver = registry.resolver(URI)
        node = resolver.lookup(root).contents
        name, rest = root.rsplit("/", 1)[-1], []
        for part in path:
            while isinstance(node, dict) and "$ref" in node and part not in node:
                ref = node["$ref"]
                node = resolver.lookup(URI + ref if ref.startswith("#") else ref).contents
                name, rest = ref.rsplit("/", 1)[-1], []
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                break
            rest.append(str(part))
        return f"{name}: {'/'.join(rest)}"

    def check_request(self, method: str, template: str, body: Any) -> list[SchemaError]:
        validator = self.request_validator(method, template)
        if validator is None:
            return []
        return self._errors(validator, body, self.request_registry)

    def check_response(self, method: str, template: str, status: int, body: Any) -> list[SchemaError]:
        """What is wrong with an answer (no answer is described for ``status``: that is wrong too)."""
        entry, _ = self.response_entry(method, template, status)
        if entry is None:
            return [SchemaError((), "responses", f"no {status} answer is described", "", "")]
        validator = self.response_validator(method, template, status)
        if validator is None:
            if body is not None:
                return [SchemaError((), "responses", f"a {status} answer has no body", "", "")]
            return []
        return self._errors(validator, body, self.registry)


@cache
def spec() -> Spec:
    """The description, loaded once per process."""
    return Spec()
