"""What the build tests share: one build of this checkout into a throwaway dist folder."""

from __future__ import annotations

import json

import pytest
from tools.harness.build_module import load_build_module


@pytest.fixture(scope="session")
def built_dist(tmp_path_factory: pytest.TempPathFactory):
    """A build of this repository into a throwaway dist folder (read it; do not change it)."""
    builder = load_build_module()
    return builder.build(dist=tmp_path_factory.mktemp("dist"), log=lambda _line: None)


@pytest.fixture(scope="session")
def built_info(built_dist) -> dict:
    return json.loads((built_dist.dist / "build-info.json").read_text())
