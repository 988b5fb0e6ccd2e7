"""Every shell command of the README, run as written.

Each fenced ``sh``/``bash``/``console`` block of README.md is split into commands (one a line, a
trailing backslash continuing it, ``#`` comment lines dropped; in ``console`` blocks the lines
starting with ``$ ``).  A block preceded by ``<!-- needs: WHAT -->`` is not run (it needs Discord,
root, a running service, a PostgreSQL server, the network beyond PyPI, or a long time, or the
suite's own tests run it already); every
other block is run, in README order, in one copy of the checkout, where the quick start's own
commands make a fresh virtual environment (pip reads the machine's package index and cache) that
the later blocks use as ``.venv``.  ``RUN`` lists the blocks run, by their first command, so a block
cannot silently drop out, and a new block is either run or marked.

Two deliberate differences from a reader's paste, each because the command as written would not
end by itself here: a ``python -m pytest`` command gets ``--collect-only -q -n 0 --assert=plain``
(running the whole suite inside itself would take its whole time again; collecting still imports
every test and checks the options and marker expressions, and a collection runs no assert, so
pytest's rewriting of them, three quarters of a collection's time, is left out), and standard input is empty (the terminal table's
prompt stops at the end of input).  Each command has a time limit.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

# ``suite``: a block the suite's own tests run with the same settings (tests/test_style.py: mypy,
# ruff), not run twice.
NEEDS = {"discord", "root", "service", "postgresql", "network", "time", "suite"}
STYLE = ROOT / "tests" / "test_style.py"

# The blocks run, by their first command, in README order.
RUN = [
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/python -m bot",
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' && .venv/bin/python -m pytest",
    ".venv/bin/python -m bot.terminal guacamole --players 3 --computer 2 --seed 7",
    ".venv/bin/python -m bot.terminal --replay pukllay-local/pachakuna-seed3/pachakuna-seed3.json",
    "cp .env.example .env",
    ".venv/bin/python -m bot --version",
    ".venv/bin/python -m bot --check-database",
    "mkdir -p backups",
    "mv pukllay.db pukllay.db.damaged && rm -f pukllay.db-wal pukllay.db-shm",
    ".venv/bin/python -m bot --migrate",
    "mv pukllay.db.before-017 pukllay.db && rm -f pukllay.db-wal pukllay.db-shm",
    ".venv/bin/python -m pytest -n 0",
    ".venv/bin/pip install -q -e '.[mutation]'",
    ".venv/bin/python -m bot.i18n extract",
    ".venv/bin/pybabel init -i languages/pukllay.pot -d languages -D pukllay -l fr",
    ".venv/bin/python -m renderers.gallery boards guacamole",
]

# What a command must do besides exit 0: (status, a line standard error must end with).
EXPECT = {
    # Without a token the bot says so in one line and stops (status 2).
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/python -m bot": (
        2,
        "pukllay: DISCORD_TOKEN is not set; copy .env.example to .env and put your bot token in it.",
    ),
}

# Bounds that only end a command that would never finish (a hang): an install took 190 s in a run
# beside six other jobs on 2 cores, and over 300 s in a serial run at low priority beside them.
LIMIT = {
    "python3 -m venv": 900,
    ".venv/bin/pip": 900,
    ".venv/bin/python -m pytest": 180,
}
DEFAULT_LIMIT = 60


@dataclass(frozen=True)
class Block:
    line: int  # in README.md, of the opening fence
    needs: frozenset[str]
    commands: tuple[str, ...]


def blocks(text: str) -> list[Block]:
    found = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = re.fullmatch(r"(\s*)```(\w*)\s*", lines[i])
        if not fence:
            i += 1
            continue
        indent, language = fence.groups()
        end = i + 1
        while not re.fullmatch(r"\s*```\s*", lines[end]):
            end += 1
        body = [line[len(indent) :] if line.startswith(indent) else line for line in lines[i + 1 : end]]
        if language in ("sh", "bash", "console"):
            above = lines[i - 1].strip() if i else ""
            marked = re.fullmatch(r"<!--\s*needs:\s*([\w ,-]+?)\s*-->", above)
            needs = frozenset(w.strip() for w in marked.group(1).split(",")) if marked else frozenset()
            found.append(Block(i + 1, needs, tuple(commands(body, console=language == "console"))))
        i = end + 1
    return found


def commands(body: list[str], *, console: bool) -> list[str]:
    out: list[str] = []
    pending = ""
    for raw in body:
        line = raw.rstrip()
        if console and not pending:
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        out.append((pending + line).strip())
        pending = ""
    assert not pending, f"a command ends in a backslash: {pending!r}"
    return out


def readme_blocks() -> list[Block]:
    return blocks(README.read_text(encoding="utf-8"))


def bare(command: str) -> str:
    """The command without its trailing comment."""
    return re.sub(r"\s+#.*$", "", command)


def as_run(command: str) -> str:
    """The command as the test runs it (see the module's docstring)."""
    code = bare(command)
    if re.search(r"(^|&& )\.venv/bin/python -m pytest\b[^&|;]*$", code):
        return code + " --collect-only -q -n 0 --assert=plain"
    return command


def limit(command: str) -> int:
    return max((s for start, s in LIMIT.items() if start in command), default=DEFAULT_LIMIT)


def environment(home: Path) -> dict[str, str]:
    """The machine's environment without the bot's settings or the suite's own (a reader's shell)."""
    drop = re.compile(
        r"^(DISCORD_TOKEN|DATABASE_|SHARD_|DEV_GUILD_ID|LOG_|HTTP_|SYNC_COMMANDS|THREAD_|AWAY_|JOB_|"
        r"DEADLINE_|COMPUTER_|EXPORT_IDS|PYTEST_|PYTHON|VIRTUAL_ENV|HYPOTHESIS_|COV_)"
    )
    env = {k: v for k, v in os.environ.items() if not drop.match(k)}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if "/.venv/" not in p)
    env["MYPY_CACHE_DIR"] = str(home / "mypy-cache")  # not beside the copy's files: they are the reader's
    return env


def copy_checkout(dest: Path) -> None:
    """The files git knows (and the README being tested), as a fresh clone would have them."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = dest / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def prepare(first: str, work: Path) -> None:
    """What a reader has when they reach a block: a database where one is backed up or restored,
    the backup the restore names, the copy an upgrade kept."""
    db = work / "pukllay.db"
    if first == ".venv/bin/python -m bot --check-database":
        assert not db.exists()
        # The database a first start creates (``--migrate`` creates none where there is no file).
        create = "import asyncio\nfrom bot.storage import open_store\n" + (
            "async def main():\n    await (await open_store('pukllay.db')).close()\nasyncio.run(main())"
        )
        subprocess.run([".venv/bin/python", "-c", create], cwd=work, check=True, timeout=60)
    if first.startswith("mv pukllay.db pukllay.db.damaged"):
        backups = sorted((work / "backups").glob("pukllay-*.db"))
        assert backups, "the backup block made no backup"
        named = work / "backups" / "pukllay-2026-12-01.db"
        if backups[-1] != named:
            shutil.copy2(backups[-1], named)
    if first.startswith("mv pukllay.db.before-017"):
        shutil.copy2(db, work / "pukllay.db.before-017")


def test_every_block_is_run_or_marked():
    """The blocks run are exactly RUN, in order; every mark names a known need; each command of a
    block not run still names a file or module that exists (so a renamed script is caught)."""
    found = readme_blocks()
    unknown = [(b.line, sorted(b.needs - NEEDS)) for b in found if b.needs - NEEDS]
    assert unknown == [], f"unknown needs (known: {sorted(NEEDS)})"
    assert all(b.commands for b in found), [b.line for b in found if not b.commands]
    run = [bare(b.commands[0]) for b in found if not b.needs]
    assert run == RUN, "a block is neither marked <!-- needs: ... --> nor listed in RUN (or RUN is stale)"
    assert len(run) == 16
    assert len([b for b in found if b.needs]) == 19
    style = STYLE.read_text(encoding="utf-8")
    for block in found:
        if "suite" in block.needs:  # each of its tools is one tests/test_style.py runs
            for command in block.commands:
                tool = re.fullmatch(r"\.venv/bin/(\w+) .*|\.venv/bin/(\w+)", bare(command))
                assert tool, (block.line, command)
                assert f'"{tool.group(1) or tool.group(2)}"' in style, (block.line, command)
        for command in block.commands:
            for script in re.findall(
                r"\.venv/bin/python ((?:bench|examples|renderers|bot)/\S+\.py)", command
            ):
                assert (ROOT / script).is_file(), (block.line, script)
            for module in re.findall(r"\.venv/bin/python -m ([\w.]+)", command):
                path = ROOT / module.replace(".", "/")
                known = path.with_suffix(".py").is_file() or (path / "__main__.py").is_file()
                assert known or module == "pytest", (block.line, module)


def test_markers_are_read():
    """The parser sees a mark just above a fence, continuation lines, comments and console prompts."""
    text = (
        "<!-- needs: discord, root -->\n```sh\n# a comment\nfoo \\\n  --bar\nbaz  # note\n```\n"
        "\n```console\n$ echo hi\nhi\n```\n"
    )
    got = blocks(text)
    assert got == [
        Block(2, frozenset({"discord", "root"}), ("foo    --bar", "baz  # note")),
        Block(9, frozenset(), ("echo hi",)),
    ]
    assert as_run('.venv/bin/python -m pytest -m "not slow"') == (
        '.venv/bin/python -m pytest -m "not slow" --collect-only -q -n 0 --assert=plain'
    )
    assert as_run(".venv/bin/python -m bot") == ".venv/bin/python -m bot"


@pytest.mark.slow  # about 80 s of CPU: a fresh virtual environment, four collections of the suite
def test_every_command_runs_as_written(tmp_path):
    """Every command of every block not marked, in order, in a copy of the checkout with a fresh
    virtual environment: status 0 (or the status the README promises), within its time limit."""
    work = tmp_path / "clone"
    home = tmp_path / "home"
    work.mkdir()
    home.mkdir()
    copy_checkout(work)
    env = environment(home)
    ran = 0
    for block in readme_blocks():
        if block.needs:
            continue
        prepare(bare(block.commands[0]), work)
        for command in block.commands:
            status, last_line = EXPECT.get(command, (0, None))
            done = subprocess.run(
                ["bash", "-c", as_run(command)],
                cwd=work,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=limit(command),
            )
            said = f"README.md:{block.line}: {command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            assert done.returncode == status, said
            if last_line is not None:
                assert done.stderr.strip().splitlines()[-1] == last_line, said
            ran += 1
    assert ran == 24
    # What the commands were for, so a command that does nothing while exiting 0 is caught too.
    assert (work / ".venv" / "bin" / "python").exists()
    assert (work / "pukllay.db.damaged").exists() and (work / "pukllay.db").exists()
    assert list((work / "pukllay-local" / "pachakuna-seed3").glob("turn-*.png"))
    assert list((work / "boards").rglob("*.png"))
    assert (work / "languages" / "fr" / "LC_MESSAGES" / "pukllay.po").is_file()
