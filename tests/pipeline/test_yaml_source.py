"""yaml_source: plain data, positions, effect origins, and refusals (never a traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.dsl.diagnostics import Diagnostic
from legacies.pipeline.yaml_source import YamlSource, load_yaml, read_yaml_file

CARD = """\
ruleset: tiny
items:
  - id: stall
    name: "Market Stall"
    effect: gain 2 gold
    quoted: 'gain 3 gold'
    block: |
      gain 1 fame
        when bought:
    copies:
"""


def parsed(text: str | bytes) -> YamlSource:
    source, problems = load_yaml("card.yaml", text)
    assert problems == []
    assert source is not None
    return source


def codes(text: str | bytes) -> list[tuple[str, int, int]]:
    _, problems = load_yaml("bad.yaml", text)
    return [(d.code, d.line, d.column) for d in problems]


def char_at(source: YamlSource, line: int, column: int) -> str:
    return source.lines[line - 1][column - 1]


def test_plain_data_only() -> None:
    data = parsed(CARD).data
    assert data == {
        "ruleset": "tiny",
        "items": [{
            "id": "stall", "name": "Market Stall", "effect": "gain 2 gold",
            "quoted": "gain 3 gold", "block": "gain 1 fame\n  when bought:\n", "copies": None,
        }],
    }
    assert type(data) is dict and type(data["items"]) is list
    assert all(type(v) in (str, type(None)) for v in data["items"][0].values())


def test_scalar_types_are_json_like() -> None:
    data = parsed("a: 0x10\nb: 1_000\nc: -.5\nd: yes\ne: true\nf: ~\ng: 2024-01-31\nh: !!str 5\n").data
    assert data == {"a": 16, "b": 1000, "c": -0.5, "d": "yes", "e": True, "f": None, "g": "2024-01-31", "h": "5"}


def test_positions_of_keys_and_values() -> None:
    source = parsed(CARD)
    assert source.position(("items", 0, "effect")) == (5, 13)
    assert source.key_position(("items", 0, "effect")) == (5, 5)
    assert source.position(("items", 0)) == (3, 5)
    assert source.position(("items",)) == (3, 3)
    assert source.position(("ruleset",)) == (1, 10)
    assert source.span(("items", 0, "name")) == (4, 11, 25)


def test_missing_key_is_placed_at_its_parent_mapping() -> None:
    source = parsed(CARD)
    assert source.position(("items", 0, "flavor")) == source.position(("items", 0))
    assert source.position(("items", 7, "id")) == source.position(("items",))
    assert source.position(("nothing",)) == (1, 1)


def test_empty_value_is_placed_at_its_key() -> None:
    assert parsed(CARD).position(("items", 0, "copies")) == (10, 5)


def test_origin_of_a_plain_scalar_on_the_key_line() -> None:
    source = parsed(CARD)
    line_offset, column_offset = source.origin(("items", 0, "effect"))
    # "gain 2 gold": effect (1, 6) is the "2"
    assert (1 + line_offset, 6 + column_offset) == (5, 18)
    assert char_at(source, 5, 18) == "2"


def test_origin_of_a_quoted_scalar_skips_the_quote() -> None:
    source = parsed(CARD)
    line_offset, column_offset = source.origin(("items", 0, "quoted"))
    assert char_at(source, 1 + line_offset, 1 + column_offset) == "g"
    assert char_at(source, 1 + line_offset, 6 + column_offset) == "3"


def test_origin_of_a_literal_block() -> None:
    source = parsed(CARD)
    assert source.origin(("items", 0, "block")) == (7, 6)
    diagnostic = Diagnostic("E999", "unknown event", line=2, column=8)
    placed = diagnostic.shifted("card.yaml", *source.origin(("items", 0, "block")))
    assert (placed.line, placed.column) == (9, 14)
    assert source.lines[placed.line - 1][placed.column - 1:].startswith("bought")


def test_origin_of_a_block_with_leading_blank_line_and_comment() -> None:
    text = "effect: |  # a comment\n\n    second line\n"
    source = parsed(text)
    assert source.data["effect"] == "\nsecond line\n"
    line_offset, column_offset = source.origin(("effect",))
    assert (2 + line_offset, 1 + column_offset) == (3, 5)


def test_origin_of_an_explicitly_indented_block() -> None:
    source = parsed("effect: |2\n    two\n")
    assert source.data["effect"] == "  two\n"
    assert source.origin(("effect",)) == (1, 2)


def test_origin_only_for_strings() -> None:
    source = parsed("a: 3\nb: [x]\nc: text\n")
    assert source.origin(("a",)) is None
    assert source.origin(("b",)) is None
    assert source.origin(("missing",)) is None
    assert source.origin(("c",)) == (2, 3)


def test_aliases_and_merge_keys() -> None:
    source = parsed("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n")
    assert source.data["m"] == {"x": 1, "y": 3}
    assert source.position(("m", "y")) == (4, 6)
    assert source.position(("m", "x")) == (1, 14)


def test_malformed_yaml_is_y001_at_the_problem_mark() -> None:
    problems = codes("ruleset: tiny\nitems:\n  - id: a\n    name: Market: Stall\n")
    assert problems == [("Y001", 4, 17)]


def test_unterminated_quote_is_y001_at_the_quote() -> None:
    """A user's trial: an unclosed quote on line 6 of 12 was reported at line 13, past the
    end of the file, with no caret; the place was only in the parser's words."""
    _, problems = load_yaml("bad.yaml", 'a: 1\nb: "open\nc: 3\nd: 4\n')
    assert [(d.code, d.line, d.column) for d in problems] == [("Y001", 2, 4)]
    assert problems[0].message == 'malformed YAML: this " is never closed'
    assert "`|`" in (problems[0].hint or "")


@pytest.mark.parametrize(("text", "where", "said"), [
    ("a:\n\tb: 1\n", (2, 1), "a tab where YAML wants spaces"),
    ("a:\n  b: x\n\tc: 1\n", (3, 1), "a tab where YAML wants spaces"),
    ("a: [1, 2\nb: 3\n", (1, 4), "this `[` is not closed before line 2"),
    ("a: {x: 1\nb: 3\n", (1, 4), "this `{` is not closed before line 2"),
    ("a:\n  b: 1\n c: 2\n", (3, 2), "this line's indentation lines up with no key above it"),
    ("a:\n  - 1\n  b: 2\n", (3, 3), "indentation matches neither the list above it nor its entries"),
])
def test_the_commonest_yaml_mistakes_are_said_in_words_where_they_are_fixed(text: str, where: tuple[int, int],
                                                                             said: str) -> None:
    _, problems = load_yaml("bad.yaml", text)
    assert [(d.code, d.line, d.column) for d in problems] == [("Y001", *where)]
    assert said in problems[0].message and problems[0].hint


def test_two_documents_are_y001() -> None:
    assert [c for c, _, _ in codes("a: 1\n---\nb: 2\n")] == ["Y001"]


def test_python_object_tag_is_refused_and_never_built() -> None:
    text = "ok: 1\nboom: !!python/object/apply:os.system ['echo owned']\n"
    source, problems = load_yaml("bad.yaml", text)
    assert [(d.code, d.line, d.column) for d in problems] == [("Y004", 2, 7)]
    assert "python/object/apply:os.system" in problems[0].message
    assert source is not None and source.data == {"ok": 1, "boom": None}


@pytest.mark.parametrize("text", [
    "a: !!python/name:os.system ''\n",
    "a: !!binary aGVsbG8=\n",
    "a: !!set {x, y}\n",
    "a: !custom 3\n",
    "!!python/object:collections.OrderedDict {}\n",
])
def test_other_non_standard_tags_are_refused(text: str) -> None:
    assert [c for c, _, _ in codes(text)] == ["Y004"]


def test_duplicate_key_is_y002_at_the_second_key() -> None:
    assert codes("a: 1\nb: 2\na: 3\n") == [("Y002", 3, 1)]


def test_not_utf8_is_y003_at_the_byte() -> None:
    assert codes(b"a: 1\nname: Caf\xe9\n") == [("Y003", 2, 10)]


def test_bom_is_accepted() -> None:
    assert parsed("\ufeffa: 1\n".encode("utf-8")).data == {"a": 1}


def test_bad_value_for_explicit_tag_is_y005() -> None:
    assert codes("copies: !!int many\n") == [("Y005", 1, 9)]


def test_recursive_alias_is_y006() -> None:
    assert [c for c, _, _ in codes("a: &x [1, *x]\n")] == ["Y006"]


def test_alias_bomb_is_y006() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    assert [c for c, _, _ in codes("\n".join(lines) + "\n")] == ["Y006"]


def test_complex_key_is_y007() -> None:
    assert [c for c, _, _ in codes("? [a, b]\n: 1\n")] == ["Y007"]


def test_missing_file_is_f001(tmp_path: Path) -> None:
    source, problems = read_yaml_file(tmp_path / "nope.yaml", "rules/x/nope.yaml")
    assert source is None
    assert [(d.code, d.file) for d in problems] == [("F001", "rules/x/nope.yaml")]


@pytest.mark.parametrize("text", ["", "# only a comment\n", "[[[[", "{a: [}", "\x00", "a: b: c: d", "- - - -", "&a *a", "!!", "? ? ?"])
def test_never_raises(text: str) -> None:
    source, problems = load_yaml("odd.yaml", text)
    assert source is not None or problems


def test_deep_nesting_is_y008_at_the_place_it_passes_the_limit() -> None:
    source, problems = load_yaml("deep.yaml", "[" * 1000 + "]" * 1000)
    assert source is None and [(d.code, d.line, d.column) for d in problems] == [("Y008", 1, 65)]


def test_a_value_reached_through_an_alias_is_placed_at_its_own_key() -> None:
    """`copies: *n` twice: each problem is shown where the alias is used, not at the
    anchor (all 219 errors of a file used to point at one line)."""
    text = ("items:\n"
            "  - {name: &n Anchor}\n"
            "  - {name: One, copies: *n}\n"
            "  - {name: Two, copies: *n}\n")
    source, problems = load_yaml("cards.yaml", text)
    assert source is not None and not problems
    assert source.position(("items", 1, "copies")) == (3, 17)
    assert source.position(("items", 2, "copies")) == (4, 17)
    assert source.position(("items", 0, "name")) == (2, 6)  # the anchor: at its own key, on its own line


def test_a_string_over_several_plain_lines_is_known_to_be_read_as_one() -> None:
    """A user's trial: an effect written without `|` got "unexpected 'lose'" and a hint about
    `for`: YAML had joined its two lines into one. The source says which strings it joined."""
    source = parsed("a: |\n  gain 1 gold\n  lose 1 gold\nb:\n  gain 1 gold\n  lose 1 gold\nc: gain 1 gold\n"
                    "d: >\n  gain 1 gold\n  lose 1 gold\ne: >\n  gain 1 gold\n")
    assert [source.joined((k,)) for k in "abcde"] == [False, True, False, True, False]
