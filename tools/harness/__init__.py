"""What the tests, the benchmarks and the tools share, so that none of them imports another's files.

Simulated people (``players.py``), build.py loaded as a module (``build_module.py``), a throttled network link
(``network_link.py``), Chromium's flags and the page's precache signal (``browser.py``), the published deals of
another implementation (``bmn_published.json``), and for the functions' tests and benchmarks the CPython replays
(``replays.py``), the local API and its stand-ins (``fixtures.mjs``), a fresh database (``testdb.mjs``) and the
copies of a game (``copies.mjs``). It imports only the engine, the build, ``netlify/`` and ``web/common/``
(docs/layers.md).
"""
