"""A live class: the teacher's room, students who translate and judge, the projected dashboard (issue 23)."""

from bleu_app.ui import frame
from bleu_app.ui.classroom import page

frame.guard()
page.show()
