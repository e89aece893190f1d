"""The Learn wing: the lecture's steps, presenter mode, the misconception cards, the lab and the exercise."""
