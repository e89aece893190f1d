"""The Learn page's lesson content and graders, below the Streamlit layer: the misconception cards, the exercise
(computing BLEU by hand, Spot the errors, the questions), the misimplementation lab and the opening. Every number
is computed by ``bleu_core``; the prose is Markdown under ``docs/learn/lessons/`` (``bleu_app.prose``)."""
