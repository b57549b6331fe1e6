"""The guided game's coach in words (web/js/table/coach.js), in every language: a tip starts as a sentence does,
and the face card's tip says who gets the pile (you, when you played it), never "whoever played it"."""

from __future__ import annotations

import re

import pytest
from test_i18n import catalog

LANGUAGES = ["en", "fr", "ko", "vi", "ur"]

PAY_CARD_TIP = """
async ([language, seat]) => {
  const i18n = await import("./js/app/i18n.js");
  await i18n.loadLanguage(language);
  const { createCoach } = await import("./js/table/coach.js");
  const line = document.createElement("p");
  const coach = createCoach({ line });
  coach.start(true);
  coach.observe({ your_turn: false }, [{ type: "pay_card", seat, card: "JC", owed: 1, payer: "west" }]);
  return line.textContent;
}
"""


def said_by(words: dict, key: str, text: str) -> bool:
    """Whether `text` is the catalog's `key` (its one or other form) with its placeholders filled."""
    for form in ("one", "other"):
        template = words.get(f"{key}.{form}")
        if template and re.fullmatch(
            re.sub(r"\\\{\w+\\\}", ".+", re.escape(template)), text, re.DOTALL
        ):
            return True
    return False


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_face_card_tip_names_who_played_it(bare_page, language):
    words = catalog(language)
    yours = bare_page.evaluate(PAY_CARD_TIP, [language, "south"])
    theirs = bare_page.evaluate(PAY_CARD_TIP, [language, "north"])
    assert said_by(words, "coach.payCardYou", yours), yours
    assert said_by(words, "coach.payCard", theirs) and words["seat.north"] in theirs, theirs
    assert not said_by(words, "coach.payCard", yours)
    for said in (yours, theirs):
        assert "{" not in said, said
        assert said[0] == said[0].upper(), said  # "Jack of clubs: …", not "jack of clubs: …"


def test_in_english_the_tip_reads_as_a_sentence(bare_page):
    assert bare_page.evaluate(PAY_CARD_TIP, ["en", "south"]) == (
        "Jack of clubs: West must pay 1 card. If it is not a jack, queen, king or ace, the pile is yours:"
        " you played the jack of clubs."
    )
    assert bare_page.evaluate(PAY_CARD_TIP, ["en", "north"]).endswith(
        "the pile goes to North, who played the jack of clubs."
    )
