"""The page under the Content-Security-Policy the site declares (netlify.toml, which the dev server serves as
Netlify does): no inline script and no inline handler; both ways of loading the engine, the dialogs, a daily
played and sent to the board, the leaderboard and the service worker run with no violation and no console
error; offline, the worker serves the page under the same policy."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import tomllib
import urllib.parse
import urllib.request
from html.parser import HTMLParser

from a11ykit import ROOT
from pagedriver import PRECACHED, wait_for, wait_ready
from person_driver import play_daily_like_a_person

SEND_MS = 60_000  # the first verification in a fresh function instance loads Pyodide
YOU = "[data-testid=leaderboard-you]"
# The least the headers contract (PLAN.md, F) asks of the policy, directive by directive.
REQUIRED = {
    "default-src": "'self'",
    "script-src": "'self' 'wasm-unsafe-eval'",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "img-src": "'self' data:",
    "frame-ancestors": "'none'",
}
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => window.__violations.push(
  [event.effectiveDirective, event.blockedURI, event.sourceFile, event.lineNumber, event.sample]));
"""
# Whether the page runs under the policy: an inline script it adds does not run (what the test tool evaluates
# itself, no policy stops).
PROBE = "window.__inlineRan"
PROBE_SOURCE = f"{PROBE} = true"
# The browser names a refused inline script by its hash: the probe's own refusal is no error of the page's.
PROBE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(PROBE_SOURCE.encode()).digest()).decode()
INLINE_REFUSED = f"""() => {{
  const script = document.createElement("script");
  script.textContent = "{PROBE_SOURCE}";
  document.head.append(script);
  script.remove();
  return {PROBE} !== true;
}}"""
# Violations but the probe's own (an inline script from no file of the page's).
VIOLATIONS = (
    "window.__violations.filter(([, blocked, file]) => !(blocked === 'inline' && file === ''))"
)


class _Inline(HTMLParser):
    """Collects what a policy without 'unsafe-inline' would block: inline scripts, on* handlers, style
    attributes, javascript: addresses."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            self._in_script = True
            if not names.get("src"):
                self.found.append("a <script> without src")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=...>")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append(f"inline script: {data.strip()[:40]}")


def test_the_page_has_no_inline_script_and_no_inline_handler() -> None:
    parser = _Inline()
    parser.feed((ROOT / "web" / "index.html").read_text(encoding="utf-8"))
    assert parser.found == []


def declared_policy() -> str:
    """The policy netlify.toml declares for every path."""
    with (ROOT / "netlify.toml").open("rb") as handle:
        rules = tomllib.load(handle)["headers"]
    return next(rule["values"]["Content-Security-Policy"] for rule in rules if rule["for"] == "/*")


def directives(policy: str) -> dict[str, str]:
    pairs = (part.strip().split(None, 1) for part in policy.split(";") if part.strip())
    return {pair[0]: pair[1] if len(pair) > 1 else "" for pair in pairs}


def test_the_declared_policy_is_at_least_the_contract() -> None:
    declared = directives(declared_policy())
    assert {name: declared.get(name) for name in REQUIRED} == REQUIRED
    assert "'unsafe-inline'" not in declared_policy() and "'unsafe-eval'" not in declared_policy()


def console_errors(page) -> list[str]:
    """Every error the page logs or throws from now on (a refused resource or script is one)."""
    seen: list[str] = []

    def log(message) -> None:
        if message.type == "error" and PROBE_HASH not in message.text:
            seen.append(message.text)

    page.on("console", log)
    page.on("pageerror", lambda error: seen.append(f"uncaught: {error}"))
    return seen


def open_under_policy(context, query: str) -> tuple[object, list[str]]:
    """The page as the server sends it, with its policy header, watched for violations and errors."""
    context.add_init_script(script=WATCH)
    page = context.new_page()
    errors = console_errors(page)
    response = page.goto(f"/{query}")
    assert response.headers["content-security-policy"] == declared_policy()
    assert response.headers["x-content-type-options"] == "nosniff"
    wait_ready(page)
    assert page.evaluate(INLINE_REFUSED), "the policy is not in force"
    return page, errors


def test_micropip_installs_the_engine_under_the_policy(new_context) -> None:
    page, errors = open_under_policy(new_context(bypass_csp=False), "?load=micropip")
    assert page.evaluate("window.ewar.engine.path") == "micropip"
    assert page.evaluate(VIOLATIONS) == []
    assert errors == [], errors[0]


def on_the_board(server_url: str, date: str, name: str) -> list[dict]:
    query = urllib.parse.urlencode({"date": date})
    with urllib.request.urlopen(f"{server_url}api/scores?{query}", timeout=30) as response:
        return [entry for entry in json.loads(response.read())["entries"] if entry["name"] == name]


def test_a_daily_is_played_sent_and_played_offline_under_the_policy(
    new_context, server_url
) -> None:
    context = new_context(service_workers="allow", bypass_csp=False)
    page, errors = open_under_policy(context, "?load=snapshot")
    assert page.evaluate("window.ewar.engine.path") == "snapshot"

    page.click("[data-testid=open-help]")
    page.keyboard.press("Escape")
    page.click("[data-testid=open-about]")
    page.keyboard.press("Escape")
    # A sharp person (median 300 ms) for 40 s of game: flips and a slap won, timed as a person's.
    view = play_daily_like_a_person(page, seed=12, median_ms=300, play_ms=40_000)
    assert view["over"] and view["result"] is not None
    assert page.is_visible("[data-testid=result]")

    # Sent and accepted: the judge took the person's record (a machine-timed one is a 422).
    name = f"Policy {random.randrange(10_000):04d}"
    page.fill("[data-testid=name-input]", name)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{YOU}[data-state=sent]", timeout=SEND_MS)
    [entry] = on_the_board(server_url, view["date"], name)
    assert entry["score"] == view["result"]["score"] and entry["won"] == view["result"]["won"]
    assert page.evaluate(PRECACHED)["complete"] is True
    assert page.evaluate(VIOLATIONS) == []
    assert errors == []

    context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert page.evaluate(INLINE_REFUSED), "the worker served the page without its policy"
    page.click("[data-testid=mode-new]")
    page.click("[data-testid=start]")
    wait_for(page, "document.body.dataset.state === 'playing'")
    page.keyboard.press(" ")  # a game runs offline: the engine answers a slap
    wait_for(page, "window.ewar.view().wrong_slaps === 1")
    assert page.evaluate(VIOLATIONS) == []
    assert errors == []
