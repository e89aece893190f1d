"""A live class: the teacher's room, students who translate and judge, the projected dashboard (issue 23)."""

from bleu_app.ui import classroom, frame

frame.guard()
classroom.page()
