"""Class mode and shared views in Chromium (issue 23): a teacher and three students in separate browser contexts
go through both rounds while the teacher's dashboard refreshes itself; a shared view reopened in a new context
after a server restart shows the same numbers."""

from __future__ import annotations

from playwright.sync_api import expect

from bleu_app.store import CODE_LEN
from tests.browser.conftest import once_open, rerun_settled, serve, shot, wait_for_app

TEXTS = (
    "It is a guide to action which ensures that the military always obeys the commands of the party.",
    "It is to insure the troops forever hearing the activity guidebook that party direct.",
    "It is a guide to action.",
)


def _metric(p, label: str) -> str:
    box = p.locator("[data-testid='stMetric']", has_text=label).first
    return box.locator("[data-testid='stMetricValue']").inner_text().strip()


def _wait_metric(p, label: str, value: str, timeout: float = 90_000) -> None:
    p.wait_for_function(
        """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')].some(
             m => m.innerText.includes(label) &&
                  m.querySelector('[data-testid="stMetricValue"]').innerText.trim() === value)""",
        arg=[label, value],
        timeout=timeout,
    )


def test_a_class_with_a_teacher_and_three_students(app_url, new_page):
    teacher = new_page()
    teacher.goto(f"{app_url}/class")
    wait_for_app(teacher)
    teacher.get_by_role("button", name="Create the room").click()
    rerun_settled(teacher)
    code = _metric(teacher, "Room code")
    assert len(code) == CODE_LEN
    join = f"{app_url}/class?room={code}"
    codes = teacher.locator("[data-testid='stMain'] [data-testid='stCode']")
    expect(codes.filter(has_text=join).first).to_be_attached()  # drawn (the check below is exact)
    assert join in [c.strip() for c in codes.all_inner_texts()]
    expect(teacher.locator("[data-testid='stImage'] img")).to_have_count(1)  # the QR code

    students = []
    for i, text in enumerate(TEXTS):
        s = new_page(width=420, height=900)  # a phone
        s.goto(join)
        wait_for_app(s)
        s.get_by_label("Nickname").fill(f"<b>student {i}</b>")
        s.get_by_role("button", name="Join").click()
        rerun_settled(s)
        s.get_by_label("Your translation").fill(text)
        s.get_by_role("button", name="Send", exact=True).click()
        rerun_settled(s)
        expect(s.locator("[data-testid='stMain']")).to_contain_text("Your sentence BLEU")
        expect(s.locator(".bleu-tok")).not_to_have_count(0)  # the Sentence page's highlights
        students.append(s)
    # the teacher's dashboard refreshes by itself (no click): three translations appear
    _wait_metric(teacher, "Translations", "3")
    _wait_metric(teacher, "Joined", "3")

    teacher.get_by_role("button", name="Start round 2: rating").click()
    rerun_settled(teacher)
    for s in students:
        s.get_by_role("button", name="Refresh").click()
        rerun_settled(s)
        groups = s.locator("[data-testid='stRadio']")
        expect(groups).to_have_count(2)  # the two others' translations
        for k in range(groups.count()):
            groups.nth(k).get_by_text("4", exact=True).click()  # in a form: no rerun
        s.get_by_role("button", name="Send ratings").click()
        rerun_settled(s)
        expect(s.locator("[data-testid='stMain']")).to_contain_text("2 ratings sent")
    _wait_metric(teacher, "Ratings", "6")
    # everyone rated 4: no correlation to show
    expect(teacher.locator("[data-testid='stMain']")).to_contain_text("3 rated translations: r is undefined")
    # a nickname is text: the student reads it as typed, and no <b> element was made of it
    expect(students[0].get_by_text("<b>student 0</b>", exact=True)).to_have_count(1)
    assert students[0].locator("[data-testid='stMain'] b", has_text="student 0").count() == 0
    shot(teacher, "class-dashboard")
    shot(students[0], "class-student")


def test_a_shared_view_survives_a_restart(new_page, tmp_path):
    data = tmp_path / "store"
    with serve(data_dir=data) as url:
        a = new_page()
        a.goto(f"{url}/compare")
        wait_for_app(a, timeout=120_000)
        seed = a.get_by_label("Seed")
        seed.fill("7")
        seed.press("Enter")
        rerun_settled(a, timeout=120_000)
        expect(a.locator("[data-testid='stMain']")).to_contain_text("rs:7")
        a.get_by_text("Share this view").first.click()
        once_open(a.get_by_role("button", name="Share this view")).click()
        rerun_settled(a, timeout=120_000)
        expect(a.locator("[data-testid='stCode']").filter(has_text="/compare?view=").first).to_be_attached()
        link = next(c.strip() for c in a.locator("[data-testid='stCode']").all_inner_texts() if "/compare?view=" in c)
        # one ranking per metric shown (BLEU and chrF by default): every one must survive the restart
        expect(a.locator("table.bleu-ranking")).to_have_count(2)
        ranking = a.locator("table.bleu-ranking").all_inner_texts()
        assert "BLEU" in ranking[0]
    with serve(data_dir=data) as url2:  # a new server on the same store (and another port)
        b = new_page()
        b.goto(link.replace(link.split("/compare")[0], url2))
        wait_for_app(b, timeout=120_000)
        expect(b.locator("[data-testid='stMain']")).to_contain_text("rs:7")  # the view's seed, not the default
        expect(b.locator("table.bleu-ranking")).to_have_count(len(ranking))
        assert b.locator("table.bleu-ranking").all_inner_texts() == ranking  # scores, clusters from the p-values
        shot(b, "shared-view-after-restart")


def test_a_student_is_their_browser_not_their_link(app_url, new_page):
    # issue 36: the address-bar URL (?room=CODE&s=ID) carries the id only; the browser that joined keeps the secret
    teacher = new_page()
    teacher.goto(f"{app_url}/class")
    wait_for_app(teacher)
    teacher.get_by_role("button", name="Create the room").click()
    rerun_settled(teacher)
    code = _metric(teacher, "Room code")
    alice = new_page(width=420, height=900)
    alice.goto(f"{app_url}/class?room={code}")
    wait_for_app(alice)
    alice.get_by_label("Nickname").fill("alice")
    alice.get_by_role("button", name="Join").click()
    rerun_settled(alice)
    alice.get_by_label("Your translation").fill(TEXTS[2])
    alice.get_by_role("button", name="Send", exact=True).click()
    rerun_settled(alice)
    expect(alice.locator("[data-testid='stMain']")).to_contain_text("Your sentence BLEU")
    kept = [c for c in alice.context.cookies() if c["name"].startswith("bleu_student_")]
    assert len(kept) == 1
    assert kept[0]["sameSite"] == "Strict"
    assert f"s={kept[0]['name'].removeprefix('bleu_student_')}" in alice.url
    assert kept[0]["value"] not in alice.url
    # a reload (a new session): the cookie says who she is, and her translation is in its box
    alice.reload()
    wait_for_app(alice)
    expect(alice.get_by_label("Your translation")).to_have_value(TEXTS[2])
    # her URL in another browser: asked, and nothing to send with
    bob = new_page()
    bob.goto(alice.url)
    wait_for_app(bob)
    expect(bob.locator("[data-testid='stMain']")).to_contain_text("You are “alice”?")
    expect(bob.get_by_label("Your translation")).to_have_count(0)
    bob.get_by_role("button", name="Not you: join as yourself").click()
    rerun_settled(bob)
    expect(bob.get_by_role("heading", name=f"Join room {code}")).to_be_visible()
