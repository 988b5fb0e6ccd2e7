"""Mutation score of each game's rules: how many deliberately wrong rules do the tests catch?

    .venv/bin/pip install -e '.[mutation]'          # mutmut, pinned
    .venv/bin/python bench/mutation.py guacamole    # one game
    .venv/bin/python bench/mutation.py all          # every game, one after the other
    .venv/bin/python bench/mutation.py --per-file 20 tiwanaku   # a quick look

    nice -n 19 .venv/bin/python bench/mutation.py --survivors-only guacamole  # after adding tests

For each game it mutates ``engines/<game>/rules.py`` (and ``moves.py`` where the parsing
lives) with mutmut, draws a fixed sample of mutants per file (300 by default, the same sample
for the same code and seed), runs each against the game's fast engine tests and prints per
file: mutants tested, killed, survived, the score, and the mutants that only change message
text, counted apart (they are left out of the score).  A mutant that no test reaches counts
as survived.

The fast engine tests are ``tests/<game>/`` without the tests marked ``slow`` (long random
playouts and move-by-move consistency walks; the contract tests in ``test_contract.py`` check
the same completeness on fewer positions), without ``test_playouts.py``, the renderer tests
and the layering test that reads the engine's imports (mutmut's own import is there).
mutmut runs only the tests that reach the mutated function, fastest first, and stops at the
first failure, so a killed mutant costs a second or two; a survivor costs every test that
reaches its function (10-30 s of CPU here, several times that under the mutation trampolines).

``--resume`` goes on with an interrupted run (same mutants, same tests), running only the sampled
mutants that have no result yet.  ``--survivors-only`` reuses the last run's mutants and results and runs again only the sampled
mutants that survived, against the current tests: a killed mutant stays killed when tests are
only added.  It refuses when a mutated file changed since (the mutants would be stale).  The
surviving mutants of message wording are not run again (they are not scored) unless
``--with-text``.

A mutant "only changes message text" when everything it changes is the wording of a message:
a string literal holding a phrase (a space and something else; raw strings, which are
patterns, never count) or a noun given to ``plural()`` changed, replaced by None or dropped from
a call.  Event kinds, keys,
notation and phase names hold no space, so mutants of them count.

Everything runs in a scratch copy under ``.mutation/<game>/`` (git ignores it); the surviving
mutants, with their diffs, are written to ``.mutation/<game>/survivors.txt``.  It takes a
long time (minutes per file on two cores): run it when you change a game's rules, not in CI.
``--jobs`` sets how many mutants run at once; keep it at or below the machine's cores.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import functools
import json
import random
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
SEED = "pukllay-mutation-v1"
MUTMUT = [sys.executable, "-m", "mutmut"]

CONFIG = """
[tool.mutmut]
source_paths = ["engines/"]
only_mutate = {files}
pytest_add_cli_args_test_selection = ["tests/{game}/"]
# "-n 0": the tests in mutmut's own process (the test command spreads them over processes)
pytest_add_cli_args = ["-n", "0", "-m", "not slow", "-p", "no:cacheprovider", "--ignore=tests/{game}/test_render.py",
    "--ignore=tests/{game}/test_imports.py", "--ignore=tests/{game}/test_playouts.py"]
"""

GENERATE = """
from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants, setup_source_paths
from mutmut.mutation.trampoline import set_mutant_under_test
set_mutant_under_test("mutant_generation")
copy_src_dir()
copy_also_copy_files()
setup_source_paths()
create_mutants(1)
"""


def files_of(game: str) -> list[str]:
    return [
        f"engines/{game}/{name}"
        for name in ("rules.py", "moves.py")
        if (ROOT / "engines" / game / name).exists()
    ]


def prepare(game: str, work: Path) -> None:
    """A fresh scratch copy of the engines and tests, configured for this game."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in ("engines", "tests"):
        shutil.copytree(ROOT / name, work / name, ignore=ignore)
    text = (ROOT / "pyproject.toml").read_text()
    files = json.dumps(files_of(game))
    (work / "pyproject.toml").write_text(text + CONFIG.format(files=files, game=game))


def generate(work: Path) -> None:
    subprocess.run([sys.executable, "-c", GENERATE], cwd=work, check=True, capture_output=True)


def meta(work: Path, path: str) -> dict[str, int | None]:
    codes: dict[str, int | None] = json.loads((work / "mutants" / f"{path}.meta").read_text())[
        "exit_code_by_key"
    ]
    return codes


def sample(names: list[str], size: int, seed: str, path: str) -> list[str]:
    rng = random.Random(f"{seed}:{path}")
    ordered = sorted(names)
    return sorted(rng.sample(ordered, min(size, len(ordered))))


# --------------------------------------------------------------------------- reading a mutant


@functools.cache
def _mutants_file(work: Path, path: str) -> tuple[list[str], dict[str, list[int]]]:
    """The lines of the mutated copy of ``path`` and each function's span in it (read once: the
    copy is written when the mutants are made and stays as it is)."""
    lines = (work / "mutants" / path).read_text().splitlines()
    spans = json.loads((work / "mutants" / f"{path}.spans").read_text())["spans"]
    return lines, spans


def _function_sources(work: Path, path: str, name: str) -> tuple[str, str]:
    """The original and the mutated function of mutant ``name`` (as written in the mutants file)."""
    lines, spans = _mutants_file(work, path)
    short = name.rsplit(".", 1)[1]
    orig = short.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"

    def src(key: str) -> str:
        a, b = spans[key]
        body = lines[max(0, a - 2) : b + 1]
        start = next(i for i, line in enumerate(body) if line.lstrip().startswith(("def ", "async def ")))
        body = body[start:]
        indent = len(body[0]) - len(body[0].lstrip())
        kept = [body[0]]
        for line in body[1:]:  # the function's own lines: blank or indented deeper than its def
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break
            kept.append(line)
        return textwrap.dedent("\n".join(kept)).replace(key, "f", 1)

    return src(orig), src(short)


def _is_phrase(node: ast.AST, source: str) -> bool:
    """A message fragment: a non-raw string literal (or f-string) holding a space and more."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        seg = ast.get_source_segment(source, node) or ""
        if seg[:1].lower() == "r" or seg[:2].lower() in ("br", "rb"):
            return False
        return " " in node.value and node.value.strip() != ""
    if isinstance(node, ast.JoinedStr):
        return any(_is_phrase(v, source) for v in node.values if isinstance(v, ast.Constant))
    return False


def _diffs(a: ast.AST, b: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    """The smallest pairs of nodes where ``a`` and ``b`` differ (a list of another length: its owner)."""
    if type(a) is not type(b):
        return [(a, b)]
    if not isinstance(a, ast.AST):
        return [] if a == b else [(a, b)]
    out: list[tuple[ast.AST, ast.AST]] = []
    for name in a._fields:
        x, y = getattr(a, name, None), getattr(b, name, None)
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return [(a, b)]
            for u, v in zip(x, y, strict=True):
                out += _diffs(u, v)
        elif isinstance(x, ast.AST) and isinstance(y, ast.AST):
            out += _diffs(x, y)
        elif x != y:
            return [(a, b)]
    return out


def _plural_words(tree: ast.AST) -> set[int]:
    """The string literals given to ``plural()`` as its noun (``plural(n, "shell")``, and the plural
    form after it): words of a message even without a space."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name != "plural":
            continue
        words = node.args[1:] + [k.value for k in node.keywords if k.arg in ("word", "words")]
        out |= {id(w) for w in words if isinstance(w, ast.Constant) and isinstance(w.value, str)}
    return out


def text_only(orig_src: str, mut_src: str) -> bool:
    """Whether the mutant changes nothing but the wording of messages."""
    a, b = ast.parse(orig_src), ast.parse(mut_src)
    pairs = _diffs(a, b)
    if not pairs:
        return False
    nouns = _plural_words(a)

    def wording(node: ast.AST) -> bool:
        return _is_phrase(node, orig_src) or id(node) in nouns

    for x, y in pairs:
        if isinstance(x, ast.Call) and isinstance(y, ast.Call) and len(y.args) == len(x.args) - 1:
            dropped = [u for u in x.args if not any(ast.dump(u) == ast.dump(v) for v in y.args)]
            if len(dropped) == 1 and wording(dropped[0]):
                continue
            return False
        if not wording(x):
            return False
        if isinstance(y, ast.Constant) and (y.value is None or isinstance(y.value, str)):
            continue
        return False
    return True


def unified(orig_src: str, mut_src: str) -> str:
    return "".join(
        difflib.unified_diff(
            orig_src.splitlines(keepends=True), mut_src.splitlines(keepends=True), "original", "mutant", n=1
        )
    )


# --------------------------------------------------------------------------- running


@dataclass
class FileResult:
    path: str
    total: int = 0
    tested: int = 0
    killed: int = 0
    survived: list[str] = field(default_factory=list)
    text_killed: int = 0
    text_survived: list[str] = field(default_factory=list)
    other: dict[str, int] = field(default_factory=dict)

    @property
    def score(self) -> float:
        counted = self.killed + len(self.survived)
        return 100.0 * self.killed / counted if counted else 100.0


KILLED = {1, 3, 36, 24, -24, 152, 255}  # a failing test, pytest's internal error, a timeout


def refresh_tests(game: str, work: Path) -> None:
    """Bring the scratch copy's tests up to date, keeping its mutants and their results; refused
    when a mutated file changed since the mutants were made (the results would be stale)."""
    for path in files_of(game):
        if (work / path).read_text() != (ROOT / path).read_text():
            sys.exit(f"{path} changed since the last run: run the whole sample again")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for dest in (work / "tests", work / "mutants" / "tests"):
        shutil.rmtree(dest)
        shutil.copytree(ROOT / "tests", dest, ignore=ignore)
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)  # which tests reach what: anew


def run_game(
    game: str,
    per_file: int,
    seed: str,
    jobs: int,
    out: Path,
    report_only: bool = False,
    survivors_only: bool = False,
    resume: bool = False,
    with_text: bool = False,
) -> list[FileResult]:
    work = out / game
    if survivors_only:
        refresh_tests(game, work)
    elif not report_only and not resume:
        prepare(game, work)
        generate(work)
    chosen: dict[str, list[str]] = {}
    for path in files_of(game):
        chosen[path] = sample(list(meta(work, path)), per_file, seed, path)
    names = [n for ns in chosen.values() for n in ns]
    codes = {n: c for path in chosen for n, c in meta(work, path).items()}
    if survivors_only:  # killed mutants stay killed as long as tests are only added
        names = [n for n in names if codes.get(n) is not None and codes[n] not in KILLED]
        if not with_text:  # mutants of message wording stay as they were: they are not scored
            path_of = {n: path for path, ns in chosen.items() for n in ns}
            names = [n for n in names if not text_only(*_function_sources(work, path_of[n], n))]
    elif resume:  # an interrupted run: only the sampled mutants without a result yet
        names = [n for n in names if codes.get(n) is None]
    start = time.monotonic()
    if not report_only and names:
        with (work / "mutmut.log").open("w") as fh:
            subprocess.run(
                [*MUTMUT, "run", "--max-children", str(jobs), *names],
                cwd=work,
                stdout=fh,
                stderr=fh,
                check=False,
            )
    results = []
    report = []
    for path, ns in chosen.items():
        codes = meta(work, path)
        res = FileResult(path, total=len(codes))
        for name in ns:
            code = codes.get(name)
            orig_src, mut_src = _function_sources(work, path, name)
            wording = text_only(orig_src, mut_src)
            if code is None or code in (5, 34):
                res.other[str(code)] = res.other.get(str(code), 0) + 1
                continue
            res.tested += 1
            if code in KILLED:
                if wording:
                    res.text_killed += 1
                else:
                    res.killed += 1
                continue
            (res.text_survived if wording else res.survived).append(name)
            if code != 0:
                res.other[f"exit {code}"] = res.other.get(f"exit {code}", 0) + 1
            label = ("TEXT ONLY" if wording else "SURVIVED") + (" (no test reaches it)" if code == 33 else "")
            report.append(f"## {label} {name} (exit {code})\n{unified(orig_src, mut_src)}\n")
        results.append(res)
    (work / "survivors.txt").write_text("\n".join(report))
    print(
        f"{game}: {len(names)} mutants in {time.monotonic() - start:.0f} s; survivors in {work / 'survivors.txt'}"
    )
    return results


def table(results: list[FileResult]) -> str:
    """Per file: the counts and the score; then the sampled mutants not run yet (``None``) or not
    run by their tests (mutmut's codes), and the survivors that are counted but no test reached
    (exit 33) or that ended otherwise than passing."""
    head = (
        f"{'file':<30} {'mutants':>7} {'tested':>6} {'killed':>6} {'survived':>8} {'score':>6}"
        f"   {'text-only: killed':>17} {'survived':>8}"
    )
    rows = [head, "-" * len(head)]
    for r in results:
        row = (
            f"{r.path:<30} {r.total:>7} {r.tested:>6} {r.killed:>6} {len(r.survived):>8} {r.score:>5.1f}%"
            f"   {r.text_killed:>17} {len(r.text_survived):>8}"
        )
        not_run = {k: v for k, v in r.other.items() if not k.startswith("exit")}
        odd = {("unreached" if k == "exit 33" else k): v for k, v in r.other.items() if k.startswith("exit")}
        if not_run:
            row += f"   not run: {not_run}"
        if odd:
            row += f"   survived: {odd}"
        rows.append(row)
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "games", nargs="+", choices=[*GAMES, "all"], metavar="game", help=f"{', '.join(GAMES)} or all"
    )
    parser.add_argument("--per-file", type=int, default=300, help="mutants sampled per file (300)")
    parser.add_argument("--seed", default=SEED, help="the sample's seed")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (2)")
    parser.add_argument("--out", type=Path, default=ROOT / ".mutation", help="scratch folder")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="print the table of the last run (or of the mutants run so far) without running anything",
    )
    parser.add_argument(
        "--survivors-only",
        action="store_true",
        help="after adding tests: run again only the sampled mutants that survived the last run "
        "(the mutated files must be unchanged)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with an interrupted run: the sampled mutants without a result, same mutants and tests",
    )
    parser.add_argument(
        "--with-text",
        action="store_true",
        help="with --survivors-only: run the surviving mutants of message wording again too",
    )
    args = parser.parse_args(argv)
    games = GAMES if "all" in args.games else tuple(dict.fromkeys(args.games))
    results: list[FileResult] = []
    for game in games:
        results += run_game(
            game,
            args.per_file,
            args.seed,
            args.jobs,
            args.out,
            args.report_only,
            args.survivors_only,
            args.resume,
            args.with_text,
        )
        print(table(results), flush=True)


if __name__ == "__main__":
    main()
