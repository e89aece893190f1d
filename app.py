"""BLEU Explorer: `streamlit run app.py`. The frame (page config, settings sidebar, navigation) is
`bleu_app.ui.frame`; the page scripts are in `pages/`."""

from bleu_app.ui import frame

frame.run()
