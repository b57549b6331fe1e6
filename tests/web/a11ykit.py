"""Helpers for the language and accessibility tests: the catalogs, axe-core in the page, and a check that
no text is cut or pushed out of the window."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pagedriver import settle

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "web" / "i18n"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LANGUAGES = ["en", "fr", "ko", "vi", "ur"]
# What a browser set to each language sends (navigator.languages comes from the context's locale).
LOCALES = {"en": "en-GB", "fr": "fr-FR", "ko": "ko-KR", "vi": "vi-VN", "ur": "ur-PK"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str) -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


# The name rules' longest name (web/common/names.js), which a name's refusal quotes as {name_max}.
NAME_MAX = int(
    re.search(
        r"export const NAME_MAX = (\d+);",
        (ROOT / "web/common/names.js").read_text(encoding="utf-8"),
    ).group(1)
)


def with_name_max(text: str) -> str:
    """A catalog text as the page shows it, its {name_max} filled."""
    return text.replace("{name_max}", str(NAME_MAX))


def with_rule_numbers(text: str) -> str:
    """An English catalog text as the page shows it, the engine's rule numbers it quotes filled
    (bridge.rule_numbers(), as main.js hands them to i18n.js)."""
    from ewar.bridge import rule_numbers

    numbers = json.loads(rule_numbers())
    return PLACEHOLDER.sub(
        lambda m: f"{numbers[m.group(1)]:,}" if m.group(1) in numbers else m.group(0), text
    )


def run_axe(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA and best practice)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = settle(
        page,
        """async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
        }""",
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]


# Every rendered element that holds text of its own: its text must fit its box, and unless it sits in a
# panel that scrolls, the box must be inside the window.
CUT_TEXT = """
() => {
  const problems = [];
  const scrolls = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (/(auto|scroll)/.test(s.overflowY + s.overflowX) && (a.scrollHeight > a.clientHeight + 1 || a.scrollWidth > a.clientWidth + 1)) return true;
    }
    return false;
  };
  const invisible = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === "none" || s.visibility === "hidden" || Number(s.opacity) === 0) return true;
      if (a.classList?.contains("visually-hidden") || a.classList?.contains("defs")) return true;
      if (a.classList?.contains("taken")) return true; // a won pile's cards flying to the winner
    }
    return false;
  };
  const describe = (el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${[...el.classList].join(".")} "${el.textContent.trim().slice(0, 40)}"`;
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || invisible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue; // not shown, or visually hidden for screen readers
    const s = getComputedStyle(el);
    // An SVG element has no CSS box to be cut by: Chromium's scroll and client sizes of SVG text are not its
    // extent (0 and 0, or the whole drawing's). Where SVG text lands is checked against the window below.
    const box = s.display !== "inline" && !(el instanceof SVGElement);
    if (box && el.scrollWidth > el.clientWidth + 1) problems.push(`cut across: ${describe(el)} ${el.scrollWidth}>${el.clientWidth}`);
    if (box && /(hidden|clip)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1) problems.push(`cut below: ${describe(el)}`);
    if (!scrolls(el) && !el.closest("dialog[open]") && (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1)) {
      problems.push(`outside the window: ${describe(el)} ${JSON.stringify([r.left, r.top, r.right, r.bottom].map(Math.round))}`);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) problems.push("the page scrolls sideways");
  return problems;
}
"""


def cut_text(page) -> list[str]:
    return page.evaluate(CUT_TEXT)
