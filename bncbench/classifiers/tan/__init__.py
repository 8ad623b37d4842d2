"""Tree-augmented naive Bayes: TAN (`tan`) and selective TAN (`stan`, paper 000) with the
attribute rankings STAN selects over (`rankings`)."""
