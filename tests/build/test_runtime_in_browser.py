"""The built dist/ boots in Chromium: Pyodide from dist/pyodide, then micropip and the engine wheel."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tools.harness.build_module import load_build_module

ROOT = Path(__file__).resolve().parents[2]
BOOT = """async () => {
  const info = await (await fetch("/build-info.json")).json();
  const { loadPyodide } = await import("/pyodide/pyodide.mjs");
  // The runtime as the page loads it: the build's classic script, given to loadPyodide.
  await new Promise((resolve, reject) => {
    const script = Object.assign(document.createElement("script"), { src: "/pyodide/pyodide.asm.js" });
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  });
  const pyodide = await loadPyodide({ indexURL: "/pyodide/", createPyodideModule: ewarPyodideRuntime.default });
  await pyodide.loadPackage(["/" + info.micropip_wheel, "/" + info.engine_wheel]);
  return pyodide.runPython(
    "import ewar, micropip, sys; [ewar.__version__, micropip.__version__, sys.platform]"
  ).toJs();
}"""


@pytest.mark.slow
def test_dist_boots_pyodide_and_loads_the_engine_wheel(browser, built_dist, tmp_path_factory):
    builder = load_build_module()
    result = built_dist
    with builder.DevServer(result.dist, data_dir=tmp_path_factory.mktemp("board")) as url:
        page = browser.new_page()
        fetched: list[str] = []
        page.on("requestfinished", lambda request: fetched.append(urlsplit(request.url).path))
        failed: list[str] = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.goto(url + "build-info.json")
        version, micropip_version, platform = page.evaluate(BOOT)
        page.close()
    info = json.loads((result.dist / "build-info.json").read_text())
    assert (version, platform) == (info["engine_version"], "emscripten")
    assert f"micropip-{micropip_version}-" in info["micropip_wheel"]
    assert not failed
    from_pyodide = {
        path.removeprefix("/pyodide/") for path in fetched if path.startswith("/pyodide/")
    }
    # Every runtime file copied is used, and nothing else is fetched from the runtime folder.
    assert from_pyodide == set(info["runtime_files"]) | {
        info["micropip_wheel"].removeprefix("pyodide/")
    }
    assert "/" + info["engine_wheel"] in fetched
