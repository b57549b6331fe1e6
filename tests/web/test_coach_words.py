"""The guided game's coach in words (web/js/table/coach.js), in every language: a tip starts as a sentence does,
and the face card's tip says who gets the pile (you, when you played it), never "whoever played it"."""

from __future__ import annotations

import json
import re

import pytest
from a11ykit import LANGUAGES, catalog

from ewar.bridge import table_settings

# The engine's table settings (JSON text, as a JavaScript string), given to the page's modules as main.js gives
# them once the engine has loaded.
TABLE_SETTINGS = json.dumps(table_settings())

PAY_CARD_TIP = """
async ([language, seat]) => {
  const i18n = await import("./js/base/i18n.js");
  await i18n.loadLanguage(language);
  (await import("./js/base/rule-numbers.js")).setTableSettings(TABLE_SETTINGS);
  const { createCoach } = await import("./js/table/coach.js");
  const line = document.createElement("p");
  const coach = createCoach({ line });
  coach.start(true);
  coach.observe({ your_turn: false }, [{ type: "pay_card", seat, card: "JC", owed: 1, payer: "west" }]);
  return line.textContent;
}
""".replace("TABLE_SETTINGS", TABLE_SETTINGS)


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
def test_the_face_card_tip_names_who_played_it(shared_bare_page, language):
    words = catalog(language)
    yours = shared_bare_page.evaluate(PAY_CARD_TIP, [language, "south"])
    theirs = shared_bare_page.evaluate(PAY_CARD_TIP, [language, "north"])
    assert said_by(words, "coach.payCardYou", yours), yours
    assert said_by(words, "coach.payCard", theirs) and words["seat.north"] in theirs, theirs
    assert not said_by(words, "coach.payCard", yours)
    for said in (yours, theirs):
        assert "{" not in said, said
        assert said[0] == said[0].upper(), said  # "Jack of clubs: …", not "jack of clubs: …"


def test_in_english_the_tip_reads_as_a_sentence(shared_bare_page):
    assert shared_bare_page.evaluate(PAY_CARD_TIP, ["en", "south"]) == (
        "Jack of clubs: West must pay 1 card. If it is not a jack, queen, king or ace, the pile is yours:"
        " you played the jack of clubs."
    )
    assert shared_bare_page.evaluate(PAY_CARD_TIP, ["en", "north"]).endswith(
        "the pile goes to North, who played the jack of clubs."
    )


STILL_OUT = """
async ([language, clocks]) => {
  const i18n = await import("./js/base/i18n.js");
  await i18n.loadLanguage(language);
  (await import("./js/base/rule-numbers.js")).setTableSettings(TABLE_SETTINGS);
  const { createCoach } = await import("./js/table/coach.js");
  const line = document.createElement("p");
  document.body.append(line);
  let offered = 0;
  const coach = createCoach({ line, onNewDeal: () => { offered += 1; } });
  coach.start(true);
  const said = [];
  for (const [clock, status] of clocks) {
    coach.observe({ your_turn: false, clock, seats: [{ status }] }, []);
    const button = line.querySelector("[data-testid=coach-new-deal]");
    said.push([line.firstChild.textContent.trim(), button ? button.textContent : null]);
    if (button && clock === 30000) button.click();
  }
  line.remove();
  return { said, offered };
}
""".replace("TABLE_SETTINGS", TABLE_SETTINGS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_out_of_cards_a_while_the_coach_says_what_can_happen_and_offers_a_new_deal(
    shared_bare_page, language
):
    words = catalog(language)
    clocks = [
        [1_000, "playing"],
        [5_000, "out"],
        [24_000, "out"],  # 19 s out: not yet
        [25_000, "out"],  # 20 s: the offer
        [30_000, "out"],  # taken (the flow asks before leaving the game)
        [31_000, "playing"],  # back in: the offer goes
    ]
    answer = shared_bare_page.evaluate(STILL_OUT, [language, clocks])
    said = answer["said"]
    assert [button for _text, button in said] == [
        None,
        None,
        None,
        *[words["result.again"]] * 2,
        None,
    ]
    assert said[3][0] == words["coach.stillOut"]
    assert said[5][0] == words["coach.watch"]
    assert answer["offered"] == 1
