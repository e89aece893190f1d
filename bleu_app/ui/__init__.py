"""The Streamlit layer (with app.py and pages/, the only code that imports Streamlit).

The platform is this package's loose modules: ``frame`` (what every page runs in), ``nav`` (the pages), ``state``
(every session key and every write), ``cached`` (every cache), ``docs`` (prose on a page), ``serving``,
``memory`` and ``blas`` (what a served process refuses and gives back). Above it ``components`` holds what every
wing shows (scores, highlighted text, tables, charts, widgets, exports, shared views), and each wing has its
package: ``learn`` (the Learn page; ``learn.steps`` is its step registry), ``corpus`` (the Corpus and Compare
pages) and ``classroom`` (the Class page). The wings do not import each other (import-linter's contracts).
"""
