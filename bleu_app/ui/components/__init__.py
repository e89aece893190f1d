"""Pieces every wing uses: widgets, tables, exports, shareable views and the rendering helpers."""
