"""Learn BLEU: the paper's Examples 1-4 step by step, a misimplementation lab and an exercise."""

from bleu_app.ui import frame
from bleu_app.ui.learn import page

frame.guard()
page.show()
