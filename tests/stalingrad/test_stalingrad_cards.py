"""The three action-card decks (S1.5, S5): sizes, marks, bilingual texts, effects."""

from __future__ import annotations

import pytest

from hexwar.base.errors import DataError
from hexwar_stalingrad.cards import DECKS, EFFECT_KINDS, MARKS, check_decks, load_cards

CARDS = load_cards()


@pytest.mark.parametrize("deck", DECKS)
def test_s5_4_each_deck_has_ten_cards_using_all_three_marks(deck: str) -> None:
    cards = [c for c in CARDS if c.deck == deck]
    assert len(cards) >= 10
    assert {c.mark for c in cards} == set(MARKS)


def test_cards_are_bilingual_and_grounded() -> None:
    for c in CARDS:
        assert c.name != c.name_ru
        assert c.text != c.text_ru
        assert any("\u0400" <= ch <= "\u04ff" for ch in c.name_ru + c.text_ru), c.id
        assert c.history, c.id


def test_s5_3_only_infinite_cards_last_the_game() -> None:
    for c in CARDS:
        for e in c.effects:
            assert (e.duration == "game") == (c.mark == "∞"), c.id


def test_effect_parameters_follow_the_vocabulary() -> None:
    for c in CARDS:
        for e in c.effects:
            required, optional = EFFECT_KINDS[e.kind]
            assert set(required) <= set(e.params) <= set(required) | set(optional), c.id


def test_historical_cards_exist() -> None:
    names = " ".join(c.name for c in CARDS)
    for needle in (
        "227",
        "Maskirovka",
        "Airlift",
        "Stand-Fast",
        "Fuel",
        "Blizzard",
        "Tatsinskaya",
        "Little Saturn",
        "Winter Storm",
    ):
        assert needle in names, needle


def test_check_decks_rejects_a_thin_deck_or_a_missing_mark() -> None:
    with pytest.raises(DataError, match=r"rkka.*at least 10"):
        check_decks([c for c in CARDS if c.deck != "rkka" or c.mark != "!"])
    with pytest.raises(DataError, match=r"common.*uses no '∞'"):
        check_decks(
            [c for c in CARDS if c.deck != "common" or c.mark != "∞"]
            + [c for c in CARDS if c.deck == "common" and c.mark == "1"]
        )
