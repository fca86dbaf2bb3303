"""The rulebook (docs/stalingrad/rulebook.md) and the rule ids the package cites.

Every rule id cited under ``src/hexwar_stalingrad/`` (error messages, ``rule=`` arguments,
docstrings, comments, data files) must resolve to an anchor of the rulebook; every anchor
must be a rule of the numbering S1-S11 / W1-W10, once; every ruling gives its reason and
the Russian words it rests on, and those words are the source's (checked against the
Russian rulebook when ``/work/shared`` is present).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "docs/stalingrad/rulebook.md"
PACKAGE = ROOT / "src/hexwar_stalingrad"
SHARED = ROOT.parent / "shared"
DIGEST = SHARED / "spec/stalingrad.md"

#: The numbering: rules per section (S1.1-S1.7, ...), lettered sub-items, worked examples.
RULES_PER_SECTION = {1: 7, 2: 3, 3: 4, 4: 2, 5: 5, 6: 6, 7: 4, 8: 5, 9: 3, 10: 7, 11: 2}
SUB_ITEMS = {"S9.1": "abc"}
EXAMPLES = 10

#: A rule id: S8, S8.4, S9.1b, W5 — not part of a longer word or number (S8.4.1, XS8).
RULE_ID = re.compile(r"(?<![\w.])([SW]\d+(?:\.\d+)?[a-z]?)(?!\w|\.\d)")
ANCHOR = re.compile(r'<a id="([^"]*)"></a>')
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


def numbering() -> list[str]:
    ids: list[str] = []
    for section, count in RULES_PER_SECTION.items():
        ids.append(f"S{section}")
        for n in range(1, count + 1):
            rule = f"S{section}.{n}"
            ids.append(rule)
            ids.extend(rule + letter for letter in SUB_ITEMS.get(rule, ""))
    ids.extend(f"W{n}" for n in range(1, EXAMPLES + 1))
    return ids


def rule_ids(text: str) -> list[str]:
    """Rule ids cited in ``text``, in order (a ``W`` id must be W1-W10 to be a rule;
    ``W`` followed by another number is a Wehrmacht start number, not cited here)."""
    return RULE_ID.findall(text)


def cited_ids() -> dict[str, list[str]]:
    """Rule id → the places (``path:line``) that cite it, over the package's sources and
    data files."""
    files = sorted(PACKAGE.rglob("*.py")) + sorted((PACKAGE / "data").glob("*.toml"))
    out: dict[str, list[str]] = {}
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule in rule_ids(line):
                out.setdefault(rule, []).append(f"{path.relative_to(ROOT)}:{number}")
    return out


def anchors(text: str) -> list[str]:
    """The anchors of a Markdown text (not those shown as code, like the scheme's example)."""
    return ANCHOR.findall(re.sub(r"`[^`\n]*`", "", text))


def one_line(text: str) -> str:
    """Markdown as one line: blockquote marks dropped, whitespace collapsed."""
    return " ".join(" ".join(re.sub(r"^\s*>", "", ln) for ln in text.splitlines()).split())


def source_quotes(text: str) -> list[str]:
    """The «…» quotes after each ``**Source:**`` (several, separated by ``;``); nested
    guillemets are kept."""
    line = one_line(text)
    quotes: list[str] = []
    for match in re.finditer(r"\*\*Source:\*\*", line):
        i = match.end()
        while True:
            while i < len(line) and line[i] in " ;":
                i += 1
            if i >= len(line) or line[i] != "«":
                break
            depth, start = 0, i
            while i < len(line):
                depth += {"«": 1, "»": -1}.get(line[i], 0)
                i += 1
                if depth == 0:
                    break
            quotes.append(line[start + 1 : i - 1])
    return quotes


def ruling_blocks(text: str) -> list[str]:
    """Each blockquote (consecutive ``>`` lines) that states a ruling."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line.lstrip().startswith(">"):
            if current is None:
                current = []
                blocks.append(current)
            current.append(line)
        else:
            current = None
    return [one_line("\n".join(b)) for b in blocks if "**Ruling (ours)" in "\n".join(b)]


# -- the extractor itself -------------------------------------------------------------------------


def test_rule_id_pattern() -> None:
    text = (
        'rule="S8.2"; ruling S2.3; (S9.1b) S10.2–S10.7, W5; S6 and S11.1. not: S8.4.1 XS8 hS2 S1x2'
    )
    assert rule_ids(text) == ["S8.2", "S2.3", "S9.1b", "S10.2", "S10.7", "W5", "S6", "S11.1"]


def test_the_collector_finds_citations_of_every_kind() -> None:
    cited = cited_ids()
    places = {p for ps in cited.values() for p in ps}
    assert any(p.endswith(".toml:9") for p in cited["S8.2"])  # rule = "S8.2" in tables.toml
    assert any("data/" in p for p in places)
    assert any(p.split(":")[0].endswith(".py") for p in places)
    assert len(cited) >= 50


# -- the numbering and its anchors --------------------------------------------------------------


def test_every_cited_rule_resolves_to_an_anchor() -> None:
    known = set(anchors(RULEBOOK.read_text(encoding="utf-8")))
    missing = {rule: places for rule, places in sorted(cited_ids().items()) if rule not in known}
    assert not missing, f"rule ids cited in the package without an anchor in {RULEBOOK.name}: " + (
        "; ".join(f"{rule} at {', '.join(places)}" for rule, places in missing.items())
    )


def test_every_anchor_is_a_rule_of_the_numbering_once() -> None:
    found = anchors(RULEBOOK.read_text(encoding="utf-8"))
    duplicates = sorted(a for a, n in Counter(found).items() if n > 1)
    assert not duplicates, f"anchors defined twice: {duplicates}"
    expected = numbering()
    outside, without = sorted(set(found) - set(expected)), sorted(set(expected) - set(found))
    assert not outside, f"anchors outside the numbering: {outside}"
    assert not without, f"rules without an anchor: {without}"
    assert found == expected, "anchors are not in the order of the numbering"


def test_each_anchor_is_followed_by_its_visible_id() -> None:
    text = re.sub(r"`[^`\n]*`", "", RULEBOOK.read_text(encoding="utf-8"))
    for match in ANCHOR.finditer(text):
        rule = match.group(1)
        after = text[match.end() : match.end() + len(rule) + 2].lstrip("*")
        assert after.startswith(rule), f"anchor {rule} is not followed by its id: {after!r}"


def test_links_to_rules_resolve() -> None:
    known = set(anchors(RULEBOOK.read_text(encoding="utf-8")))
    bad = []
    for path in [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        pattern = r"\]\(#([^)\s]+)\)" if path == RULEBOOK else r"rulebook\.md#([^)\s`]+)"
        name = path.relative_to(ROOT)
        bad += [f"{name}: #{a}" for a in re.findall(pattern, text) if a not in known]
    assert not bad, f"links to missing rules: {bad}"


def test_every_ruling_gives_reason_and_source() -> None:
    blocks = ruling_blocks(RULEBOOK.read_text(encoding="utf-8"))
    assert len(blocks) >= 20
    for block in blocks:
        assert "**Why:**" in block, f"ruling without a reason: {block[:80]}"
        quotes = source_quotes(block)
        assert quotes, f"ruling without a source phrase: {block[:80]}"
        assert all(CYRILLIC.search(q) for q in quotes), f"source phrase not Russian: {block[:80]}"


def test_no_package_doc_points_outside_the_repository() -> None:
    for path in [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        assert "shared/spec" not in text, path
        assert "shared/reference" not in text, path


# -- against the sources (present for developers and CI, absent for users) -------------------


@pytest.mark.skipif(not DIGEST.exists(), reason="the rules digest is not present")
def test_numbering_is_the_digests() -> None:
    text = DIGEST.read_text(encoding="utf-8")
    ids = set(re.findall(r"^(?:## |- |- \*\*Ruling )([SW]\d+(?:\.\d+)?)\b", text, re.M))
    item = re.search(r"^- S9\.1 .*?(?=^- )", text, re.M | re.S)
    assert item is not None
    ids |= {"S9.1" + letter for letter in re.findall(r"\(([a-z])\)", item.group(0))}
    assert ids == set(numbering())


def _seed() -> Path | None:
    seeds = sorted((SHARED / "seeds").glob("000_*.txt")) if SHARED.exists() else []
    return seeds[0] if seeds else None


@pytest.mark.skipif(_seed() is None, reason="the Russian rulebook is not present")
def test_source_phrases_are_the_russian_rulebooks() -> None:
    seed = _seed()
    assert seed is not None
    original = " ".join(seed.read_text(encoding="utf-8").split())
    quotes = source_quotes(RULEBOOK.read_text(encoding="utf-8"))
    assert len(quotes) >= 60
    wrong = [q for q in quotes if q not in original]
    assert not wrong, f"phrases not found in {seed.name}: {wrong}"


def rulings_of(rule: str) -> list[str]:
    """The ruling blocks between ``rule``'s anchor and the next anchor."""
    text = RULEBOOK.read_text(encoding="utf-8")
    start = text.index(f'<a id="{rule}"></a>')
    following = ANCHOR.search(text, start + len(f'<a id="{rule}"></a>'))
    return ruling_blocks(text[start : following.start() if following else len(text)])


@pytest.mark.parametrize(
    ("rule", "topics"),
    [
        ("S4.1", ["air unit", "mix"]),
        ("S6.5", ["«…И АРТИЛЛЕРИИ»"]),
        ("S10.4", ["support uses nothing up", "a bomber that supported still strikes"]),
        ("S10.5", ["AL in the air", "EX in the air", "the defender's hex", "after an EX"]),
    ],
)
def test_decisions_where_the_source_is_silent_are_marked_rulings(
    rule: str, topics: list[str]
) -> None:
    """Each statement the source does not make, or makes otherwise, is a ruling of ours
    with its reason (issue 30: S4.1, S6.5, S10.4, S10.5)."""
    blocks = rulings_of(rule)
    for topic in topics:
        assert any(topic in b for b in blocks), f"{rule}: no ruling on {topic!r}"


def test_the_relief_group_ruling_names_the_data_s_counters() -> None:
    """Ruling S11.2 "who is who" names exactly the counters the data tags
    ``relief_group`` (and oob.md explains why)."""
    from hexwar_stalingrad.board import static
    from hexwar_stalingrad.rules import StalingradRules

    (block,) = [b for b in rulings_of("S11.2") if "who is who" in b]
    data = static(StalingradRules().new_state())
    tagged = {u for u, info in data.ground.items() if "relief_group" in info.groups}
    named = set(re.findall(r"`(w-[\w-]+)`", block))
    assert named == tagged == {"w-6pz", "w-17pz", "w-23pz"}
    assert "three" in block
    assert "six" not in block
