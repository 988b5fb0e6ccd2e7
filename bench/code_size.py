"""The table's size and typing, counted the same way each time: ``bot/`` and ``cogs/``.

Run as ``python bench/code_size.py [REF ...] [--list]`` (from any folder: it counts the checkout
that holds it).  Each column is a tree: the checkout's working tree, then each git ``REF`` given
(a commit, a tag, a branch), read with ``git archive`` without touching the checkout (a name git does not know is refused in one
line).  ``--list`` prints, before the table, each ``Any`` annotation of the working tree with its
file and line.  Per tree it prints:

* ``lines``: the Python lines of ``bot/`` and ``cogs/`` (every line, as ``wc -l`` counts);
* ``Any annotations``: the annotations that name ``typing.Any`` anywhere in them (``Any``,
  ``dict[str, Any]``, ``Callable[..., Any]``), over every function's parameters and return and
  every annotated assignment (a class's fields too);
* ``of them bare``: those that are ``Any`` alone;
* ``ModuleType annotations``: an engine held as a bare module (the contract's Protocol replaced it);
* ``parameters without one``: parameters with no annotation (``self`` and ``cls`` aside);
* ``per 1,000 lines``: the ``Any`` annotations per thousand lines.
"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

ROOTS = ("bot", "cogs")
CHECKOUT = Path(__file__).resolve().parents[1]


def working_tree() -> Iterator[tuple[str, str]]:
    for root in ROOTS:
        for path in sorted((CHECKOUT / root).rglob("*.py")):
            yield str(path.relative_to(CHECKOUT)), path.read_text(encoding="utf-8")


def archive_of(ref: str) -> bytes:
    """``bot/`` and ``cogs/`` at ``ref`` as a tar archive; SystemExit naming ``ref`` when git
    does not know it."""
    done = subprocess.run(
        ["git", "archive", "--end-of-options", ref, *ROOTS], capture_output=True, cwd=CHECKOUT
    )
    if done.returncode != 0:
        raise SystemExit(
            f"code_size: {ref!r} is not a commit, tag or branch here ({done.stderr.decode().strip()})"
        )
    return done.stdout


def at_ref(archive: bytes) -> Iterator[tuple[str, str]]:
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".py"):
                handle = tar.extractfile(member)
                assert handle is not None
                yield member.name, handle.read().decode("utf-8")


def annotations_of(tree: ast.AST) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x)]:
                if arg.annotation is not None:
                    yield arg.annotation
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def unannotated(tree: ast.AST) -> int:
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x)]:
                count += arg.annotation is None and arg.arg not in ("self", "cls")
    return count


def names_in(annotation: ast.expr) -> set[str]:
    found = {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
    found |= {n.attr for n in ast.walk(annotation) if isinstance(n, ast.Attribute)}
    for n in ast.walk(annotation):  # a quoted annotation ("Any")
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            try:
                found |= names_in(ast.parse(n.value, mode="eval").body)
            except SyntaxError:
                pass
    return found


def measure(files: Iterator[tuple[str, str]]) -> dict[str, float]:
    lines = any_ = bare = module = loose = 0
    for _, text in files:
        lines += text.count("\n") + (0 if not text or text.endswith("\n") else 1)
        tree = ast.parse(text)
        loose += unannotated(tree)
        for annotation in annotations_of(tree):
            named = names_in(annotation)
            any_ += "Any" in named
            bare += isinstance(annotation, ast.Name) and annotation.id == "Any"
            module += "ModuleType" in named
    return {
        "lines": lines,
        "Any annotations": any_,
        "of them bare": bare,
        "ModuleType annotations": module,
        "parameters without one": loose,
        "per 1,000 lines": round(1000 * any_ / lines, 1) if lines else 0.0,
    }


def any_annotations(files: Iterator[tuple[str, str]]) -> Iterator[tuple[str, int, str]]:
    """Each annotation naming ``Any``: its file, line and text, in the order of the file's lines
    (:func:`ast.walk` meets them breadth first)."""
    for path, text in files:
        found = [a for a in annotations_of(ast.parse(text)) if "Any" in names_in(a)]
        for annotation in sorted(found, key=lambda a: (a.lineno, a.col_offset)):
            yield path, annotation.lineno, ast.unparse(annotation)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="The size and typing of bot/ and cogs/, per tree.")
    parser.add_argument(
        "refs",
        nargs="*",
        metavar="REF",
        help="git commits, tags or branches to count beside the working tree",
    )
    parser.add_argument(
        "--list", action="store_true", help="print each Any annotation of the working tree first"
    )
    args = parser.parse_args(argv)
    if args.list:
        for path, line, text in any_annotations(working_tree()):
            print(f"{path}:{line}: {text}")
        print()
    archives = [(ref, archive_of(ref)) for ref in args.refs]  # every name checked before counting
    columns = [("working tree", measure(working_tree()))]
    columns += [(ref, measure(at_ref(archive))) for ref, archive in archives]
    width = max(len(k) for k in columns[0][1])
    print(f"{'bot/ + cogs/':<{width}}  " + "  ".join(f"{name:>14}" for name, _ in columns))
    for key in columns[0][1]:
        print(f"{key:<{width}}  " + "  ".join(f"{figures[key]:>14}" for _, figures in columns))


if __name__ == "__main__":
    main(sys.argv[1:])
