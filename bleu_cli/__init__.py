"""bleu_cli: the ``bleu-explorer`` command line, above both the core (``bleu_core``) and the app (``bleu_app``).

The core imports neither (import-linter); the CLI may import both: ``report`` draws the app's charts, ``app``
starts the Streamlit app. Registering the commands imports nothing heavy, so ``score`` starts fast.
"""
