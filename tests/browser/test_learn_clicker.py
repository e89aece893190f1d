"""A clicker-safe deck (issue 34, review items 1 and 2), in Chromium at 1280x720: a presentation clicker's PageDown
scrolls a step taller than the screen and moves on only at its end; every step opens at its top with the page
focused; after a vote the radio lets go of the keys (an arrow moved the class's vote), and so does the step list
after a jump; Escape leaves a widget."""

from __future__ import annotations

import re

from playwright.sync_api import Page, WebSocketRoute, expect

from bleu_app.ui.learn import present, steps
from tests.browser.conftest import rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"
_SCROLL = "() => { const m = document.querySelector('[data-testid=\"stMain\"]'); return m.scrollTop; }"
_ROOM = """() => { const m = document.querySelector('[data-testid="stMain"]');
  return m.scrollHeight - m.clientHeight - m.scrollTop; }"""
_COUNTED = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stCaptionContainer"]')]
  .map(e => e.innerText).find(t => t.includes('words counted')) || ''"""
_FOCUS = "() => document.activeElement && document.activeElement.getAttribute('data-testid')"


def _present(p: Page, app_url: str, key: str) -> None:
    p.goto(f"{app_url}/learn?present=1&step={key}")
    wait_for_app(p)
    _at(p, key)


def _at(p: Page, key: str) -> None:
    """Step ``key`` is shown, its keys are bound (the frame of this step has run) and the page has the focus."""
    step = steps.get(key)
    title = step.title if step.part in steps.OWN_HEADING else steps.heading(step)  # the lab draws its own
    p.wait_for_function("(k) => new URLSearchParams(location.search).get('step') === k", arg=key)
    expect(p.locator(f"{MAIN} h2").first).to_have_text(re.compile(rf"^\s*{re.escape(title)}"))
    p.wait_for_function("(k) => document.bleuStep === k && !!document.bleuStepKeys", arg=key, timeout=60_000)
    p.wait_for_function(f"() => ({_FOCUS})() === 'stMain'", timeout=10_000)


def _press_and_wait_scroll(p: Page, key: str, before: float) -> float:
    p.keyboard.press(key)
    p.wait_for_function(f"(b) => ({_SCROLL})() !== b", arg=before, timeout=10_000)
    return float(p.evaluate(_SCROLL))


def test_pagedown_scrolls_a_tall_step_then_moves_on_and_each_step_opens_at_its_top(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    _present(p, app_url, "cards")  # the misconception cards: about three screens
    assert p.evaluate(_ROOM) > 720, "the cards fit one screen: no scrolling to test"
    top = 0.0
    for _ in range(8):  # a clicker: PageDown until the end of the step
        if p.evaluate(_ROOM) <= 4:
            break
        top = _press_and_wait_scroll(p, "PageDown", top)
        assert "step=cards" in p.url, "PageDown moved on before the end of the step"
    assert p.evaluate(_ROOM) <= 4, "PageDown never reached the end of the step"
    shot(p, "clicker-cards-end")
    p.keyboard.press("PageDown")  # at the end: the next step
    rerun_settled(p)
    _at(p, "lab")
    assert p.evaluate(_SCROLL) == 0, "the next step opened scrolled down"
    p.keyboard.press("PageUp")  # at the top of a step: back to the previous one, at its top
    rerun_settled(p)
    _at(p, "cards")
    assert p.evaluate(_SCROLL) == 0
    p.evaluate("() => { document.querySelector('[data-testid=\"stMain\"]').scrollTop = 10000; }")
    p.get_by_role("button", name="Next →").click()  # a mouse on Next, at the bottom of a step
    rerun_settled(p)
    _at(p, "lab")
    assert p.evaluate(_SCROLL) == 0


def test_the_vote_lets_go_of_the_keys_and_the_arrows_never_change_it(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    _present(p, app_url, "opening")
    radio = p.locator(f"{MAIN} [data-testid='stRadio']")
    radio.get_by_text("Candidate 1", exact=True).click()
    rerun_settled(p)
    p.wait_for_function(f"() => ({_FOCUS})() === 'stMain'", timeout=10_000)  # the radio has let go
    p.keyboard.press("PageDown")  # the clicker works at once (the slide fits: PageDown moves on)
    rerun_settled(p)
    _at(p, "plain")
    p.keyboard.press("ArrowLeft")
    rerun_settled(p)
    _at(p, "opening")
    chosen = p.locator(f"{MAIN} [data-testid='stRadioOption'][data-selected='true']")
    expect(chosen).to_have_text("Candidate 1")
    radio.locator("input").first.focus()  # even with the radio focused (a click on it), → moves the lecture
    p.keyboard.press("ArrowRight")
    rerun_settled(p)
    _at(p, "plain")
    p.keyboard.press("ArrowLeft")
    rerun_settled(p)
    _at(p, "opening")
    expect(chosen).to_have_text("Candidate 1")  # not Candidate 2: the class's vote stands


def test_after_a_jump_with_the_step_list_the_clicker_works_and_escape_leaves_a_widget(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    _present(p, app_url, "short")
    p.locator(f"{MAIN} [data-testid='stSelectbox']").first.click()
    p.get_by_role("option", name=steps.heading(steps.get("geomean"))).click()
    rerun_settled(p)
    _at(p, "geomean")  # the list's box has let go: the page has the focus
    p.keyboard.press("PageDown")
    rerun_settled(p)
    _at(p, "short")
    box = p.locator(f"{MAIN} [data-testid='stSelectbox'] input").first
    box.focus()
    p.keyboard.press("ArrowRight")  # typing in the box: the caret moves, not the lecture
    p.keyboard.press("Escape")
    p.wait_for_function(f"() => ({_FOCUS})() === 'stMain'", timeout=10_000)
    assert "step=short" in p.url
    p.keyboard.press("ArrowRight")
    rerun_settled(p)
    _at(p, "recall")


def test_a_press_while_no_button_can_take_it_waits_for_one(app_url, new_page):
    """A clicker press that comes while a rerun is drawing the buttons (here: Next held disabled for 0.6 s) moves the
    lecture once Next is back, instead of being lost (a flaky CI run lost the first → of a slide this way)."""
    p = new_page(scheme="light", width=1280, height=720)
    _present(p, app_url, "plain")
    p.evaluate(
        """() => {
        const b = document.querySelector('[class*="st-key-learn-step_next"] button');
        b.disabled = true;
        setTimeout(() => { b.disabled = false; }, 600);
    }"""
    )
    p.keyboard.press("ArrowRight")
    _at(p, "clipping")


def test_a_press_while_the_keys_frame_reloads_is_not_lost(app_url, new_page):
    """The keys live in the page, not in their frame: between a frame's unload and the next one's script (every new
    step loads the frame again) a press still moves the lecture. The frame is replaced by one that runs nothing."""
    p = new_page(scheme="light", width=1280, height=720)
    _present(p, app_url, "plain")
    p.evaluate(
        """(mark) => {
        const f = [...document.querySelectorAll('iframe')].find((f) => (f.srcdoc || '').includes(mark));
        f.srcdoc = `<!-- ${mark} -->`;
        return new Promise((done) => f.addEventListener('load', done, {once: true}));
    }""",
        present.KEYS_MARK,
    )
    p.keyboard.press("ArrowRight")
    _at(p, "clipping")


def test_a_press_whose_click_the_connection_lost_is_sent_again_and_moves_once(app_url, new_page):
    """A clicker press whose click never reached the server (dropped on the websocket: a connection that hiccups
    under load) is sent again once no run of the page followed it; the buttons go to places fixed when drawn, so
    the second click cannot move the lecture twice. Without the handler's retry the slide stays whole."""
    p = new_page(scheme="light", width=1280, height=720)
    dropped: list[bytes] = []
    sent: list[bytes] = []  # the clicks of ◀ that reached the server

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if isinstance(message, bytes) and b"learn.build_prev" in message and not dropped:
                dropped.append(message)  # the first click of ◀ is lost on the way
                return
            if isinstance(message, bytes) and b"learn.build_prev" in message:
                sent.append(message)
            server.send(message)

        ws.on_message(to_server)

    p.route_web_socket(re.compile(r".*/_stcore/stream$"), route)
    _present(p, app_url, "clipping")  # opened by a link: the slide is whole
    expect(p.locator(f"{MAIN} [data-testid='stMetricValue']").first).to_have_text("2/7")
    p.keyboard.press("ArrowLeft")  # one word back: 6 of 7
    p.wait_for_function(f"() => ({_COUNTED})() === '6 of 7 words counted'", timeout=30_000)
    assert len(dropped) == 1, "no click was dropped: the test tested nothing"
    rerun_settled(p)
    p.wait_for_function("() => document.bleuStepKeys !== undefined", timeout=10_000)
    # past another retry's time: the click sent again was sent once (a run followed it) and the count stays at 6
    p.wait_for_timeout(present.KEY_RETRY_MS + 500)
    assert len(sent) == 1, f"the click was sent {len(sent)} times after the lost one"
    assert p.evaluate(_COUNTED) == "6 of 7 words counted"
    assert "step=clipping" in p.url


_MARK = (
    "() => { const e = document.querySelector('[data-bleu-at]'); return e ? e.getAttribute('data-bleu-at') : null; }"
)


def test_a_click_that_reaches_the_server_twice_moves_once(app_url, new_page):
    """The keys may send a click again (above): ◀ and ▶ go to a count fixed when they were drawn, not one word on
    from wherever the server is, so the same click arriving a second time (here: sent again by the test after its
    run ended) leaves the count where the first put it. With "one more" buttons it went one word further."""
    p = new_page(scheme="light", width=1280, height=720)
    server_of: list[WebSocketRoute] = []
    clicks: list[bytes] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server_of.append(server)

        def to_server(message: str | bytes) -> None:
            if isinstance(message, bytes) and b"learn.build_prev" in message:
                clicks.append(message)
            server.send(message)

        ws.on_message(to_server)

    p.route_web_socket(re.compile(r".*/_stcore/stream$"), route)
    _present(p, app_url, "clipping")
    p.keyboard.press("ArrowLeft")
    p.wait_for_function(f"() => ({_COUNTED})() === '6 of 7 words counted'", timeout=30_000)
    rerun_settled(p)
    assert len(clicks) == 1
    before = p.evaluate(_MARK)
    server_of[-1].send(clicks[0])  # the same click once more
    p.wait_for_function(f"(b) => ({_MARK})() !== b", arg=before, timeout=30_000)  # its run drew the slide again
    wait_for_app(p)
    assert p.evaluate(_COUNTED) == "6 of 7 words counted"
