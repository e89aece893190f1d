"""Sections as values: the frames and charts a section shows, built once for the page and the report."""
