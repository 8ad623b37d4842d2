"""Data sets: the catalog, file sources (cache, mirror, download), parsers and generators."""
