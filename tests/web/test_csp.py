"""The page under the Content-Security-Policy the site declares (netlify.toml; here a route adds it to every page
the server sends): no inline script and no inline handler; both ways of loading the engine, a game, the dialogs,
the leaderboard and the service worker run with no violation; offline, the worker serves the page under the same
policy."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from a11ykit import ROOT
from pagedriver import lose_by_wrong_slaps, start_from_menu, wait_for, wait_ready

# The policy of the headers contract (PLAN.md, F): the least the site sends.
POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'self'; "
    "img-src 'self' data:; frame-ancestors 'none'"
)
PAGE = re.compile(r"^https?://[^/]+/(index\.html)?(\?.*)?$")
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => window.__violations.push(
  [event.effectiveDirective, event.blockedURI, event.sourceFile, event.lineNumber, event.sample]));
"""
# Whether the page runs under the policy: an inline script it adds does not run (what the test tool evaluates
# itself, no policy stops).
PROBE = "window.__inlineRan"
INLINE_REFUSED = f"""() => {{
  const script = document.createElement("script");
  script.textContent = "{PROBE} = true";
  document.head.append(script);
  script.remove();
  return {PROBE} !== true;
}}"""
# Violations but the probe's own (an inline script from no file of the page's).
VIOLATIONS = (
    "window.__violations.filter(([, blocked, file]) => !(blocked === 'inline' && file === ''))"
)
PRECACHED = """
async () => {
  await window.ewarOffline.registered;
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
  return (await window.ewarOffline.status()).complete;
}
"""


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


def add_policy(route) -> None:
    response = route.fetch()
    route.fulfill(
        response=response, headers={**response.headers, "content-security-policy": POLICY}
    )


def open_under_policy(context, query: str) -> object:
    context.add_init_script(script=WATCH)
    context.route(PAGE, add_policy)  # the worker's own download of the page too
    page = context.new_page()
    page.goto(f"/{query}")
    wait_ready(page)
    assert page.evaluate(INLINE_REFUSED), "the policy is not in force"
    return page


def test_micropip_installs_the_engine_under_the_policy(new_context) -> None:
    page = open_under_policy(new_context(bypass_csp=False), "?load=micropip")
    assert page.evaluate("window.ewar.engine.path") == "micropip"
    assert page.evaluate(VIOLATIONS) == []


def test_the_page_plays_and_works_offline_under_the_policy(new_context) -> None:
    context = new_context(service_workers="allow", bypass_csp=False)
    page = open_under_policy(context, "?load=snapshot")
    assert page.evaluate("window.ewar.engine.path") == "snapshot"

    page.click("[data-testid=open-help]")
    page.keyboard.press("Escape")
    page.click("[data-testid=open-about]")
    page.keyboard.press("Escape")
    start_from_menu(page, speed="fast", deal=77)
    assert lose_by_wrong_slaps(page)["over"]
    assert page.is_visible("[data-testid=result]")
    wait_for(
        page,
        "document.querySelector('[data-testid=leaderboard] .lb-empty, [data-testid=leaderboard] tr')",
    )
    assert page.evaluate(PRECACHED) is True
    assert page.evaluate(VIOLATIONS) == []

    context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert page.evaluate(INLINE_REFUSED), "the worker served the page without its policy"
    assert page.evaluate(VIOLATIONS) == []
