// Runs before any module (a classic script, old syntax on purpose): if the page's own scripts cannot load or
// parse, or the browser runs no modules at all, the loading screen says so instead of staying frozen.
// biome-ignore-all lint/complexity/useArrowFunction: browsers too old for modules may not know arrow functions
(function () {
  function showError(attribute) {
    var body = document.body;
    var box = document.getElementById("load-error");
    if (!body || !box || body.getAttribute("data-state") !== "loading") return;
    box.textContent = box.getAttribute(attribute);
    box.hidden = false;
    body.setAttribute("data-state", "error");
  }

  function onError(event) {
    var scriptFailed = event.target && event.target.tagName === "SCRIPT";
    if (scriptFailed || event.error) showError("data-fallback");
  }

  // One line, no trailing comma: old parsers refuse one in a call.
  addEventListener("error", onError, true);

  if (!("noModule" in document.createElement("script"))) {
    document.addEventListener("DOMContentLoaded", function () {
      showError("data-old-browser");
    });
  }
})();
