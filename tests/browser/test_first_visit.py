"""bench.load's first-visit figures (issue 24): what Chromium fetches on a first visit through nginx, with
Streamlit's static files served by nginx (gzipped, cached) and with everything proxied to the app process."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bench import serve_class


def test_nginx_serves_the_frontend_and_the_app_process_only_the_page() -> None:
    # in a thread of its own: the bench starts its own Playwright, and the browser tests' session fixture keeps
    # one running in this thread (Playwright's sync API refuses to start inside another's event loop)
    with ThreadPoolExecutor(1) as pool:
        costs = pool.submit(serve_class.first_visit_costs, 1, 1).result()
    (proxied,) = costs["all proxied"]
    (static,) = costs["nginx serves static"]
    assert proxied.requests > 100  # Streamlit's frontend is over a hundred files
    assert proxied.from_app == proxied.requests
    assert static.requests >= proxied.requests - 2
    assert static.from_app <= 5  # the page, health and host-config: the rest comes from nginx
    assert static.kb < proxied.kb / 2  # gzipped once by nginx's copy
    assert proxied.cpu_s > 0
