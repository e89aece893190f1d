"""The browser tests run on one xdist worker (``make test`` uses ``--dist loadgroup``; conftest marks them).

They share one app server, one Chromium and the runtime-only copy of the project; spread over two workers they
start two of each on two cores, and two `make run` in the same copy race its install. A pytest/xdist pair that
drops the group (pytest 9.2 with xdist 3.8: pytest-xdist#1386) fails here instead of as a flake elsewhere.
"""

from __future__ import annotations

import pytest


def test_browser_tests_are_grouped_on_one_worker(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@browser"), request.node.nodeid
