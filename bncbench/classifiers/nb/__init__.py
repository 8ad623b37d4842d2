"""Naive Bayes and its attribute-weighted form: NB (`nb`), CFWNB (`cfwnb`)."""
