"""The Class wing: a live class room (the teacher's view, the students' rounds, the projected dashboard)."""
