"""The README's "Your own game" names every hook the code reads, and lists the code's checks
and capabilities (issue 23, item 2)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from searchvid.conformance import CHECKS
from searchvid.domains.base import Domain
from searchvid.reference import (
    BLOCKS,
    CAPABILITIES_END,
    CAPABILITIES_START,
    CHECKS_END,
    CHECKS_START,
    END_MARKER,
    START_MARKER,
    capabilities_reference,
    checks_reference,
    readme_block,
    update_readme,
)
from searchvid.render.view import View
from searchvid.search.node import Capability

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RENDER = ROOT / "searchvid" / "render"
HOOKS_START = "<!-- hooks: start -->"
HOOKS_END = "<!-- hooks: end -->"

# getattr(<something naming a view, a domain or a narrator>, "hook"): the optional hooks the
# renderer reads only where they exist, so that no base class lists them.
_GETATTR = re.compile(r'getattr\(\s*([\w.\[\]]+)\s*,\s*"([A-Za-z]\w*)"')
_OWNERS = ("view", "domain", "narrator")


def readme() -> str:
    return README.read_text(encoding="utf-8")


def between(text: str, start: str, end: str) -> str:
    assert text.count(start) == 1, f"{start} once"
    assert text.count(end) == 1, f"{end} once"
    return text[text.index(start) + len(start) : text.index(end)]


def table_rows(block: str) -> list[list[str]]:
    """The cells of each row of the Markdown table in ``block`` (no header, no rule)."""
    rows = []
    for line in block.strip().splitlines()[2:]:
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        rows.append([cell.strip() for cell in cells])
    return rows


def first_names(block: str) -> list[str]:
    """The backticked name in the first cell of each row."""
    names = []
    for cells in table_rows(block):
        match = re.fullmatch(r"`([^`]+)`", cells[0])
        assert match, f"first cell is not one `name`: {cells[0]!r}"
        names.append(match.group(1))
    return names


def hooks_read_by_the_renderer() -> set[str]:
    """Names read with ``getattr`` on views, domains and narrators in ``searchvid/render``,
    and on views in the scene, which makes the view the renderer draws with
    (``show_frontier``)."""
    found = set()
    for path in sorted(RENDER.glob("*.py")):
        for owner, name in _GETATTR.findall(path.read_text(encoding="utf-8")):
            if any(word in owner.lower() for word in _OWNERS):
                found.add(name)
    scene = (RENDER.parent / "scene.py").read_text(encoding="utf-8")
    found.update(name for owner, name in _GETATTR.findall(scene) if "view" in owner.lower())
    return found


def hooks_of_the_code() -> set[str]:
    """Every name of the domain and view contract: what the README's table must list."""
    public = {n for n in [*dir(Domain), *Domain.__annotations__] if not n.startswith("_")}
    view = {n for n in [*dir(View), *View.__annotations__] if not n.startswith("_")}
    return public | {"__init__"} | view | hooks_read_by_the_renderer()


def test_the_scan_finds_the_optional_hooks_of_views_and_domains() -> None:
    # The comparison below is only as good as this scan: it must see what the renderer reads.
    assert hooks_read_by_the_renderer() >= {
        "marks",
        "label_size",
        "move_cells",
        "observe",
        "describe_problem",
        "show_frontier",
    }


def test_the_readme_lists_every_hook_the_code_reads_and_no_other() -> None:
    listed = first_names(between(readme(), HOOKS_START, HOOKS_END))
    assert len(listed) == len(set(listed)), "a hook is listed twice"
    code = hooks_of_the_code()
    assert not code - set(listed), f"hooks missing from the README: {sorted(code - set(listed))}"
    assert not set(listed) - code, f"README hooks the code lacks: {sorted(set(listed) - code)}"


@pytest.mark.parametrize(
    "name", sorted(n for n in hooks_of_the_code() if inspect.isfunction(getattr(Domain, n, None)))
)
def test_each_domain_method_in_the_readme_has_the_code_s_signature(name: str) -> None:
    rows = {
        cells[0].strip("`"): cells
        for cells in table_rows(between(readme(), HOOKS_START, HOOKS_END))
    }
    signature, example = rows[name][1], rows[name][3]
    match = re.match(rf"`{re.escape(name)}\(([^)]*)\)", signature)
    assert match, f"{name}: signature cell {signature!r} does not start with `{name}(...)`"
    written = [p.strip() for p in match.group(1).split(",") if p.strip()]
    actual = [p for p in inspect.signature(getattr(Domain, name)).parameters if p != "self"]
    assert written == actual
    assert example, f"{name}: no example"


def test_every_hook_row_says_who_reads_it_and_gives_an_example() -> None:
    for cells in table_rows(between(readme(), HOOKS_START, HOOKS_END)):
        assert len(cells) == 4, cells
        assert all(cells), f"an empty cell in {cells}"


def test_the_readme_lists_the_checks_of_check_in_order() -> None:
    block = between(readme(), CHECKS_START, CHECKS_END)
    assert first_names(block) == [check.name for check in CHECKS]
    assert [row[1] for row in table_rows(block)] == [check.description for check in CHECKS]
    assert readme_block(readme(), BLOCKS[2]) == checks_reference(), "run `make reference`"


def test_the_readme_lists_the_capability_members() -> None:
    block = between(readme(), CAPABILITIES_START, CAPABILITIES_END)
    assert first_names(block) == [f"Capability.{member.name}" for member in Capability]
    assert [row[1] for row in table_rows(block)] == [m.description for m in Capability]
    assert readme_block(readme(), BLOCKS[1]) == capabilities_reference(), "run `make reference`"


def test_the_readme_documents_searchvid_debug_and_the_caption_prefixes() -> None:
    section = readme().split("## Your own game\n", 1)[1].split("\n## ", 1)[0]
    assert "`SEARCHVID_DEBUG=1`" in section
    assert "`expand: pour tube 3 into tube 1`" in section
    assert "`play X at b2`" in section


def test_update_readme_rewrites_every_block_it_finds(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(
        f"{START_MARKER}\nstale reference\n{END_MARKER}\n\n"
        f"{CHECKS_START}\nstale checks\n{CHECKS_END}\n\n"
        f"{CAPABILITIES_START}\n{CAPABILITIES_END}\nAfter.\n",
        encoding="utf-8",
    )
    assert update_readme(path)
    text = path.read_text(encoding="utf-8")
    assert "stale" not in text
    assert readme_block(text, BLOCKS[2]) == checks_reference()
    assert readme_block(text, BLOCKS[1]) == capabilities_reference()
    assert text.endswith(f"{CAPABILITIES_END}\nAfter.\n")
    assert not update_readme(path)


def test_a_readme_without_the_optional_blocks_keeps_its_text(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(f"Before.\n{START_MARKER}\n{END_MARKER}\nAfter.\n", encoding="utf-8")
    assert update_readme(path)
    text = path.read_text(encoding="utf-8")
    assert CHECKS_START not in text
    assert CAPABILITIES_START not in text
    assert text.startswith(f"Before.\n{START_MARKER}\n")
    assert text.endswith(f"{END_MARKER}\nAfter.\n")
