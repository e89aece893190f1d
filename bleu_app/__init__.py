"""bleu_app: support code for the Streamlit app (frames, charts, samples, and the ui package)."""
