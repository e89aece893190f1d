"""Class mode through app.py (issue 23): a teacher and several students, each an AppTest session of its own,
sharing one store (SQLite and PostgreSQL: ``store_env``). What each of them reads is checked."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd
import pytest
from sacrebleu.metrics import BLEU
from streamlit.testing.v1 import AppTest

from bleu_app.frames import classroom as frames
from bleu_app.frames.metrics import Signed
from bleu_app.store import CODE_LEN
from bleu_app.ui import state
from bleu_app.ui.classroom import room as classroom
from bleu_app.ui.components import export
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_1
from tests.ui.conftest import downloaded, open_app, recorded_downloads

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/class.py"
NASTY = "**bold** <b>x</b> $x^2$"
GRADES = [5, 1, 3]  # what every student gives Candidate 1, Candidate 2 and the short one


def _button(app: AppTest, label: str):
    return next(b for b in app.button if b.label == label)


def _texts(app: AppTest) -> list[str]:
    return [t.value for t in app.text]


def _metrics(app: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in app.metric}


def _teacher() -> tuple[AppTest, str]:
    t = open_app(PAGE)
    t.button(key="class.create").click().run()
    assert not t.exception
    return t, _metrics(t)["Room code"]


def _student(code: str, nick: str) -> AppTest:
    s = open_app(PAGE, query={classroom.ROOM: code})
    assert s.subheader[0].value == f"Join room {code}"
    s.text_input(key="class.nick").input(nick)
    s.button(key="class.join_room").click().run()
    assert not s.exception
    return s


def _submit(s: AppTest, text: str) -> None:
    s.text_area(key="class.translation").input(text)
    s.button(key="class.submit").click().run()
    assert not s.exception


def test_a_class_through_both_rounds(store_env):
    teacher, code = _teacher()
    assert len(code) == CODE_LEN
    codes = [c.value for c in teacher.code]
    assert codes[0] == f"http://localhost:8501/class?room={code}"  # the join link
    assert codes[1].endswith(f"?teach={teacher.session_state[state.CLASS_TEACH]}")
    assert teacher.image  # the QR code, drawn locally
    assert EXAMPLE_1.references[0] in "\n".join(_texts(teacher)).replace("1. ", "")

    texts = [EXAMPLE_1.candidates[0], EXAMPLE_1.candidates[1], "It is a guide to action."]
    students = [_student(code, nick) for nick in (NASTY, "Bo", "")]
    for s, text in zip(students, texts, strict=True):
        _submit(s, text)
    # each student sees their own BLEU at once, scored with the room's settings (sacreBLEU sentence here)
    expected = [explain_segment(t, list(EXAMPLE_1.references), BleuConfig.sentence()).score.score for t in texts]
    for s, want in zip(students, expected, strict=True):
        assert _metrics(s)["Your sentence BLEU"].startswith(f"{want:.2f}")
        assert s.table  # the clipping table
        assert 'class="bleu-tok' in s.html[0].value  # the Sentence page's highlights
    # a nickname is text, never Markdown or HTML
    assert NASTY in _texts(students[0])
    assert all(NASTY not in m.value for m in students[0].markdown)

    with recorded_downloads() as made:
        teacher.run()
    room_csv = list(csv.DictReader(io.StringIO(downloaded(teacher, "Download room CSV", made))))
    sentence = BLEU(effective_order=True)  # sacreBLEU's sentence_bleu(), the room's setting here
    sentence.sentence_score(texts[0], list(EXAMPLE_1.references))
    assert {r[export.SACREBLEU_SIGNATURE] for r in room_csv} == {f"BLEU: {sentence.get_signature()}"}
    ours = explain_segment(texts[0], list(EXAMPLE_1.references), BleuConfig.sentence()).score.signature
    assert {r[export.SIGNATURE] for r in room_csv} == {f"BLEU: {ours}"}
    assert _metrics(teacher)["Joined"] == "3"
    assert _metrics(teacher)["Translations"] == "3"
    ranked = teacher.dataframe[0].value
    assert ranked[frames.TEXT].tolist() == [texts[i] for i in sorted(range(3), key=lambda i: -expected[i])]
    assert ranked[frames.NICK].tolist()[0] == NASTY  # the best (Candidate 1) is first, its nickname as typed
    refs_table = teacher.dataframe[1].value
    assert refs_table["BLEU against the others"].between(0, 99.99).all()  # a human translation is not 100

    # round 2: the teacher opens rating; a late edit is refused; each student rates the two others
    _button(teacher, "Start round 2: rating").click().run()
    assert "Round 2" in "\n".join(m.value for m in teacher.markdown)
    for s in students:
        s.button(key="class.refresh").click().run()
        assert not s.exception
        assert s.subheader[0].value.startswith("Round 2")
        shown = [t for t in _texts(s) if t in texts]
        assert len(shown) == 2  # the two others, not their own
        by_id = {x.id: x.text for x in store_env.submissions(store_env.room_by_code(code).id)}
        for radio in s.radio:
            text = by_id[radio.key.removeprefix("class.rating.")]
            radio.set_value(GRADES[texts.index(text)])
        _button(s, "Send ratings").click().run()
        assert not s.exception
        assert any("2 ratings sent" in x.value for x in s.success)
    teacher.run()
    assert _metrics(teacher)["Ratings"] == "6"
    # every translation got two ratings, all alike: the mean ratings are GRADES, held against BLEU
    from bleu_core.significance.agreement import pearson

    said = "\n".join(m.value for m in teacher.markdown)
    assert f"**Pearson r = {pearson(expected, GRADES):.2f}**" in said
    assert "over the 3 rated translations" in said
    assert any("footnote 4" in c.value for c in teacher.caption)


def test_round_closed_and_hidden_translation(store_env):
    teacher, code = _teacher()
    a, b = _student(code, "Ann"), _student(code, "Ben")
    _submit(a, "something rude")
    _submit(b, "It is a guide to action.")
    _button(teacher, "Close translating").click().run()
    a.button(key="class.refresh").click().run()
    assert any("Translating is closed" in i.value for i in a.info)
    assert "class.translation" not in [t.key for t in a.text_area]
    # the teacher hides Ann's translation: Ben gets nothing to rate
    teacher.run()
    pick = teacher.selectbox(key="class.hide_pick")
    assert any(o.endswith("something rude") for o in pick.options)  # labelled by rank, nickname and text
    sub_id = next(s.id for s in store_env.submissions(store_env.room_by_code(code).id) if s.text == "something rude")
    pick.set_value(sub_id).run()
    teacher.button(key="class.hide").click().run()
    assert not teacher.exception
    assert store_env.submissions(store_env.room_by_code(code).id, include_hidden=False)[0].text != "something rude"
    _button(teacher, "Start round 2: rating").click().run()
    b.button(key="class.refresh").click().run()
    assert any("No translation of the others to rate yet" in i.value for i in b.info)


def test_student_link_cannot_teach_and_delete_removes_everything(store_env):
    teacher, code = _teacher()
    s = _student(code, "Ann")
    _submit(s, "hello there")
    room = store_env.room_by_code(code)
    intruder = open_app(PAGE, query={classroom.TEACH: code})
    assert any("names no open room" in e.value for e in intruder.error)
    assert not intruder.metric
    teacher.checkbox(key="class.delete_sure").check().run()
    teacher.button(key="class.delete").click().run()
    assert any("deleted" in x.value for x in teacher.success)
    assert store_env.room(room.id) is None
    assert store_env.submissions(room.id) == []
    s.button(key="class.refresh").click().run()
    assert any("No open room has this code" in e.value for e in s.error)


def test_expired_room_is_gone(store_env, monkeypatch):
    from bleu_app import store as store_mod

    _, code = _teacher()
    room = store_env.room_by_code(code)
    _submit(_student(code, "Ann"), "hello there")
    now = store_env.clock()
    store_env.clock = lambda: now + 24 * 3600 + 1
    late = open_app(PAGE, query={classroom.ROOM: code})
    assert any("No open room has this code" in e.value for e in late.error)
    assert len(store_env.submissions(room.id)) == 1  # expired, not yet deleted
    _teacher()  # making a room purges nothing itself (it was one transaction per expired room: issue 36)
    assert len(store_env.submissions(room.id)) == 1
    # the store's own purge, at most an hour after the last, deletes the expired rooms with everything in them
    clock = store_mod._monotonic()
    monkeypatch.setattr(store_mod, "_monotonic", lambda: clock + store_mod.PURGE_EVERY_S + 1)
    open_app(PAGE)
    assert store_env.submissions(room.id) == []


def test_export_csv_is_formula_safe():
    from bleu_app.store import Rating, Submission

    subs = [
        Submission("a", "r", "s1", "=HYPERLINK(1)", 1, "+cmd text", False, 0.0),
        Submission("b", "r", "s2", "Bo", 1, "the cat sat", True, 1.0),
    ]
    ratings = [Rating("s2", "a", 4), Rating("s1", "b", 1)]
    df = frames.ranked_frame(subs, ratings, ["the cat sat"], BleuConfig.sentence())
    signed = [Signed("BLEU", "sig", None, "why")]
    out = pd.read_csv(io.StringIO(export.csv(frames.export_frame(df, ratings), signed)), keep_default_na=False)
    assert out[frames.NICK].tolist() == ["Bo", "'=HYPERLINK(1)"]
    assert out[frames.TEXT].tolist() == ["the cat sat", "'+cmd text"]
    assert out["rated 4"].tolist() == [0, 1]
    assert out["rated 1"].tolist() == [1, 0]
    assert out[frames.HIDDEN].tolist() == [True, False]
    assert set(out[export.SIGNATURE]) == {"BLEU: sig"}
    assert set(out[export.SACREBLEU_SIGNATURE]) == {"BLEU: none (why)"}


@pytest.mark.parametrize(
    ("typed", "code"), [("abc234", "ABC234"), (" ab-c2 34 ", "ABC234"), ("ABC234XY" + "Z" * CODE_LEN, "ABC234XY")]
)
def test_room_codes_are_cleaned(typed, code):
    assert classroom.clean_code(typed) == code


def test_a_room_from_a_line_of_the_loaded_corpus(store_env):

    t = open_app("pages/corpus.py")  # the demo corpus is loaded
    corpus = t.session_state[state.CORPUS]
    t.switch_page(PAGE).run()
    t.number_input(key="class.corpus_line").set_value(3).run()
    t.button(key="class.use_line").click().run()
    # the demo corpus has references but no source: the teacher is asked to put one
    assert corpus.source is None
    assert t.text_area(key="class.source").value.startswith("Translate (this corpus has no source line")
    assert t.text_area(key="class.refs").value.splitlines() == [r.lines[2] for r in corpus.references]
    t.button(key="class.create").click().run()
    room = store_env.room_by_code(_metrics(t)["Room code"])
    assert room.source.startswith("Translate (this corpus has no source line")
    assert list(room.refs) == [r.lines[2] for r in corpus.references]


def test_visitors_are_not_told_where_the_store_lives(store_env):
    # the browser review: the page said "kept in /srv/.../bleu-explorer.sqlite3" to every visitor
    from bleu_app.store import location

    where = location()
    app = open_app(PAGE)
    shown = " ".join([*_texts(app), *(c.value for c in app.caption), *(m.value for m in app.markdown)])
    assert "kept on this server" in shown
    assert where not in shown
    assert "sqlite3" not in shown
    assert "postgres" not in shown.lower()


def test_a_students_score_says_what_its_numbers_are_and_its_table_fits_a_phone(store_env):
    _, code = _teacher()
    s = _student(code, "mei")
    text = EXAMPLE_1.candidates[0]
    _submit(s, text)
    # the highlight writes the longest matched n-gram beside each word: its legend says so (issue 34, A10)
    legend = next(h.value for h in s.html if "bleu-legend" in h.value and 'class="bleu-tok' in h.value)
    assert "the number beside a word: the longest matched n-gram it is part of" in legend
    assert "clipped" not in legend.split("</style>")[-1]  # this highlight has no clipped status
    # three references in one column, Max_Ref_Count as "Max", named in the caption under the table
    (table,) = s.table
    assert list(table.value.reset_index().columns) == ["n-gram", "Count", "Refs", "Max", "Count_clip"]
    unigrams = explain_segment(text, list(EXAMPLE_1.references), BleuConfig.sentence()).orders[0].rows
    shown = table.value.reset_index()
    assert list(shown["Refs"]) == [" · ".join(map(str, r.ref_counts)) for r in unigrams]
    assert list(shown["Count_clip"]) == [r.clipped for r in unigrams]
    assert any(c.value.startswith("Count: times in the translation") and "Max_Ref_Count" in c.value for c in s.caption)
