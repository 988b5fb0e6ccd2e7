"""The table's size and typing, counted the same way each time: ``bot/`` and ``cogs/``.

Run from the repository root: ``python bench/code_size.py [REF ...]``.  Each column is a tree:
the checkout's working tree, then each git ``REF`` given (a commit, a tag, a branch), read with
``git archive`` without touching the checkout.  Per tree it prints:

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

import ast
import io
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

ROOTS = ("bot", "cogs")


def working_tree() -> Iterator[tuple[str, str]]:
    for root in ROOTS:
        for path in sorted(Path(root).rglob("*.py")):
            yield str(path), path.read_text(encoding="utf-8")


def at_ref(ref: str) -> Iterator[tuple[str, str]]:
    archive = subprocess.run(["git", "archive", ref, *ROOTS], capture_output=True, check=True).stdout
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


def main(refs: list[str]) -> None:
    columns = [("working tree", measure(working_tree()))]
    columns += [(ref, measure(at_ref(ref))) for ref in refs]
    width = max(len(k) for k in columns[0][1])
    print(f"{'bot/ + cogs/':<{width}}  " + "  ".join(f"{name:>14}" for name, _ in columns))
    for key in columns[0][1]:
        print(f"{key:<{width}}  " + "  ".join(f"{figures[key]:>14}" for _, figures in columns))


if __name__ == "__main__":
    main(sys.argv[1:])
