"""The layers import only what they may (read from the source, not by importing it)."""

from __future__ import annotations

import ast
import functools
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once per test process (the checks only read it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(path: Path) -> set[str]:
    tree = parsed(path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
CONTRACT = (
    "TITLE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Config",
    "new_game",
    "parse_move",
    "legal_moves",
    "apply_move",
    "to_move",
    "view_for",
    "outcome",
    "to_dict",
    "from_dict",
    "computer_move",
    "RULES_HELP",
    "move_privacy",
    "readable",
    "summary",
    "turn_number",
    "move_words",
    "KINDS",
    "WORDS",
    "Move",
    "State",
    "View",
)


def test_engine_core_imports_only_the_standard_library():
    """engines/core.py (with the sentences and options it re-exports) and the registry import the
    standard library only."""
    shared = ("core.py", "sentences.py", "options.py", "__init__.py")
    for p in (ROOT / "engines" / name for name in shared):
        assert imports(p) - {"engines"} <= STDLIB, p


@pytest.mark.parametrize("game", GAMES)
def test_engine_imports_only_the_standard_library(game):
    """engines/<game> imports the standard library and engines.*, nothing else."""
    paths = files(f"engines/{game}")
    assert paths, f"engines/{game} is missing"
    bad = {str(p.relative_to(ROOT)): sorted(imports(p) - STDLIB - {"engines"}) for p in paths}
    assert {k: v for k, v in bad.items() if v} == {}


@pytest.mark.parametrize("game", GAMES)
def test_engine_never_uses_the_module_level_random(game):
    """All randomness comes from the seed: no random.random(), random.shuffle(), ... in engines."""
    for p in files(f"engines/{game}"):
        tree = parsed(p)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr != "Random"
            ):
                raise AssertionError(f"{p.relative_to(ROOT)}:{node.lineno} calls random.{node.func.attr}()")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert all(a.name == "Random" for a in node.names), f"{p} imports functions from random"


@pytest.mark.parametrize("game", GAMES)
def test_engine_exports_the_contract(game):
    """Every engine package exposes the contract's names, so the table drives any game alike."""
    module = importlib.import_module(f"engines.{game}")
    missing = [name for name in CONTRACT if not hasattr(module, name)]
    assert not missing, f"engines.{game} lacks {missing}"
    assert len(module.RULES_HELP) <= 2000


def test_renderers_never_import_discord_or_storage():
    """renderers/ draws with Pillow from views; no discord, no SQL, no bot."""
    for p in files("renderers"):
        assert not imports(p) & {"discord", "aiosqlite", "sqlite3", "bot", "cogs"}, p


def test_session_service_has_no_discord():
    """The session service, storage, time, leagues and the terminal work without discord.py."""
    assert "discord" not in imports(ROOT / "bot" / "settings.py")
    services = ("bot/sessions", "bot/storage", "bot/time", "bot/terminal", "bot/league", "bot/queue")
    for p in [path for folder in services for path in files(folder)]:
        assert "discord" not in imports(p), p


def test_sql_lives_only_in_storage():
    """No module but those of bot/storage/ talks to a database."""
    for folder in ("bot", "cogs", "engines", "renderers"):
        for p in files(folder):
            if (ROOT / "bot" / "storage") in p.parents:
                continue
            assert not imports(p) & {"sqlite3", "aiosqlite", "asyncpg"}, p


def test_cogs_hold_no_rules():
    """Cogs reach engines only through the registry and the table, never a game's rules module."""
    for p in files("cogs"):
        engine_imports = {m for m in imports(p) if m == "engines"}
        text = p.read_text()
        assert "apply_move(" not in text and "legal_moves(" not in text, p
        assert engine_imports <= {"engines"}


# The module graph: every import counts, at module level, inside functions and under TYPE_CHECKING.

PACKAGES = ("engines", "renderers", "bot", "cogs")


def module_files() -> dict[str, Path]:
    """Every module of the four layers by dotted name (a package by its own name)."""
    found = {}
    for folder in PACKAGES:
        for p in files(folder):
            parts = list(p.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = p
    return found


MODULES = module_files()


def imported(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(module, names taken from it, line) for each import in one file, relative ones resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, [alias.name for alias in node.names], node.lineno))
    return found


def edges() -> dict[str, set[str]]:
    """Which of the layers' modules each module imports. `from a import b` with a module `a.b`
    imports `a.b`; importing `a.b.c` also runs `a` and `a.b`, but a package's own `__init__` is
    not counted as importing its parent, so that `from . import x` inside a package is no circle."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for module, names, _ in imported(name, path):
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES]
            if module in MODULES and (not names or len(targets) < len(names)):
                targets.append(module)
            graph[name].update(t for t in targets if t != name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_circle_finder_finds_circles():
    """The finder itself: a three-module circle and a pair are found, a chain is not."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert sorted(circles(graph)) == [["a", "b", "c"], ["d", "e"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_circles():
    """No module imports, however indirectly, itself: counting imports in functions and under
    TYPE_CHECKING, so that the layers can be read, tested and changed one at a time."""
    graph = edges()
    assert sum(len(v) for v in graph.values()) > 200, "the import graph looks empty"
    assert circles(graph) == []


def test_no_module_is_over_800_lines():
    """Every module of the four layers holds one concern and stays readable: at most 800 lines,
    but an engine's rules (``engines/<game>/rules.py``, one game's rulebook in code)."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in MODULES.values()
        if path.name != "rules.py" and (n := len(path.read_text(encoding="utf-8").splitlines())) > 800
    }
    assert long == {}


def dotted(node: ast.expr) -> str | None:
    """A base class's expression as a dotted name (``a.b.C``; ``C[T]`` as ``C``), else None."""
    if isinstance(node, ast.Subscript):
        return dotted(node.value)
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else None


def method_counts(modules: dict[str, ast.Module]) -> dict[str, int]:
    """Every class of ``modules`` (by dotted name; a class inside a function or a class by its
    line too) and how many methods it has: those it defines and those it inherits from every class
    of ``modules`` it derives from, however indirectly.  A method it overrides counts once, unless
    it extends the base's (calls it through ``super()``): then both bodies are the class's, and
    count.  A base is found through the module's imports, a package's re-exports included."""
    top: dict[str, ast.ClassDef] = {}
    bound: dict[str, dict[str, str]] = {}
    for name, tree in modules.items():
        bound[name] = {}
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                top[f"{name}.{node.name}"] = node
                bound[name][node.name] = f"{name}.{node.name}"
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                bound[name].update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names)
            elif isinstance(node, ast.Import):
                bound[name].update((a.asname, a.name) for a in node.names if a.asname)

    def resolve(text: str, seen: frozenset[str] = frozenset()) -> str | None:
        """The project class a dotted name stands for, following imports (None: not one)."""
        if text in top:
            return text
        module, _, last = text.rpartition(".")
        while module and module not in modules:  # ``a.b.C`` with ``import a.b``
            module, _, rest = module.rpartition(".")
            last = f"{rest}.{last}"
        target = bound.get(module, {}).get(last)
        return None if target is None or text in seen else resolve(target, seen | {text})

    def bases(module: str, node: ast.ClassDef) -> list[str]:
        found = []
        for base in node.bases:
            text = dotted(base)
            if text is not None:
                head, _, rest = text.partition(".")
                local = bound[module].get(head, head)
                parent = resolve(f"{local}.{rest}" if rest else local)
                found.extend([parent] if parent is not None else [])
        return found

    def ancestry(module: str, node: ast.ClassDef) -> list[tuple[str, ast.ClassDef]]:
        """The project classes ``node`` derives from, however indirectly, with their modules."""
        found: dict[str, ast.ClassDef] = {}
        todo = bases(module, node)
        while todo:
            parent = todo.pop()
            if parent not in found and top[parent] is not node:
                found[parent] = top[parent]
                todo.extend(bases(parent.rpartition(".")[0], top[parent]))
        return [(q.rpartition(".")[0], c) for q, c in found.items()]

    def methods(node: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        return [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]

    def extended(module: str, node: ast.ClassDef) -> int:
        """How many of the class's methods extend a project base's (call it through ``super()``)."""
        inherited = {m.name for _, c in ancestry(module, node) for m in methods(c)}
        return sum(
            m.name in inherited
            and any(
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == m.name
                and isinstance(call.func.value, ast.Call)
                and dotted(call.func.value.func) == "super"
                for call in ast.walk(m)
            )
            for m in methods(node)
        )

    counts = {}
    for name, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                line = [(name, node), *ancestry(name, node)]
                names = {m.name for _, c in line for m in methods(c)}
                key = name + ("" if top.get(f"{name}.{node.name}") is node else f":{node.lineno}")
                counts[f"{key}.{node.name}"] = len(names) + sum(extended(m, c) for m, c in line)
    return counts


def test_the_method_count_counts_inherited_methods():
    """The count itself: a subclass carries its project bases' methods (through an import and a
    package's re-export, past a generic's brackets); a method overridden counts once, twice when
    it extends its project base's through ``super()``; a base outside the project adds nothing."""
    sources = {
        "p.base": "class Base:\n    def a(self): ...\n    def b(self): ...\n",
        "p": "from p.base import Base\n",
        "p.mid": "import p.base as pb\nclass Mid(pb.Base):\n    def b(self): ...\n",
        "q": "from typing import Generic\nfrom p import Base\nfrom p.mid import Mid\n"
        "class Own(Generic[int]):\n    def x(self): ...\n"
        "class Sub(Mid[int], Own):\n    def c(self): ...\n"
        "class Ext(Base):\n    def a(self):\n        return super().a()\n"
        "class Err(Exception):\n    def __init__(self):\n        super().__init__()\n",
    }
    counts = method_counts({name: ast.parse(text) for name, text in sources.items()})
    assert counts == {"p.base.Base": 2, "p.mid.Mid": 2, "q.Own": 1, "q.Sub": 4, "q.Ext": 3, "q.Err": 1}


def test_no_class_has_over_30_methods():
    """No class of the four layers is a hub: at most 30 methods, its own and those it inherits
    from the project's classes (:func:`method_counts`), so that a subclass cannot hide past the
    limit (a service holds its parts instead, as the queue's holds its tables; a command group
    split by concern, as ``/league`` is, keeps each part's class under it)."""
    counts = method_counts({name: parsed(path) for name, path in MODULES.items()})
    assert len(counts) > 300, "no classes found"
    assert {name: n for name, n in counts.items() if n > 30} == {}


def test_the_table_never_imports_the_cogs():
    """bot/ is the table; the cogs sit on it, never under it."""
    graph = edges()
    bad = {name: sorted(t for t in targets if t.split(".")[0] == "cogs") for name, targets in graph.items()}
    bad = {name: targets for name, targets in bad.items() if name.startswith("bot") and targets}
    assert bad == {}


def test_no_module_takes_another_modules_private_names():
    """A name starting with `_` stays in its module: what another module needs is public."""
    bad = []
    for name, path in MODULES.items():
        for module, names, line in imported(name, path):
            if module.split(".")[0] not in PACKAGES or module == name:
                continue
            for taken in names:
                if taken.startswith("_") and not taken.startswith("__"):
                    bad.append(f"{path.relative_to(ROOT)}:{line} takes {taken} from {module}")
    assert bad == []


# The modules that talk to Discord: the cogs, the bot and its start, the shared UI and the parts
# that post for it (pictures as Discord attachments too), the slash commands' languages and options, and the health page (which reports
# the gateway).  Every other module (sessions, public, storage, leagues, exports, history,
# results, ratings, the scheduler, engines, renderers...) works without discord.py.
TALKS_TO_DISCORD = {
    "bot.__main__",
    "bot.app",
    "bot.i18n",
    *(
        f"bot.surface.{name}"
        for name in (
            "attach",
            "boardpost",
            "boards",
            "buttons",
            "calendar",
            "catchup",
            "channels",
            "checkin",
            "clockvote",
            "direct",
            "export",
            "front",
            "gamecog",
            "history",
            "league",
            "lobby",
            "look",
            "menus",
            "options",
            "queue",
            "removal",
            "replies",
            "results",
            "tableparts",
            "undo",
            "unposted",
            "waits",
        )
    ),
    "bot.web.health",
    "bot.web.server",
}


def test_only_the_discord_side_imports_discord():
    """discord.py is imported by the cogs and the few table modules that post, nowhere else."""
    bad = []
    for name, path in MODULES.items():
        if name.startswith("cogs") or name in TALKS_TO_DISCORD:
            continue
        if any(module.split(".")[0] == "discord" for module, _, _ in imported(name, path)):
            bad.append(name)
    assert bad == []
