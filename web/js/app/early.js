// Runs before any module (a classic script, old syntax on purpose): if the page's own scripts cannot load or
// parse, or the browser runs no modules at all, the loading screen says so instead of staying frozen.
(function () {
  function showError(attribute) {
    var body = document.body;
    var box = document.getElementById("load-error");
    if (!body || !box || body.getAttribute("data-state") !== "loading") return;
    box.textContent = box.getAttribute(attribute);
    box.hidden = false;
    body.setAttribute("data-state", "error");
  }

  addEventListener("error", function (event) {
    var scriptFailed = event.target && event.target.tagName === "SCRIPT";
    if (scriptFailed || event.error) showError("data-fallback");
  }, true);

  if (!("noModule" in document.createElement("script"))) {
    document.addEventListener("DOMContentLoaded", function () {
      showError("data-old-browser");
    });
  }
})();
