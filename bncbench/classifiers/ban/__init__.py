"""Bayesian network augmented naive Bayes (paper 002): the unrestricted BAN (`ban`) with its two
structure searches, the conditional-independence search of `tpda` and the MDL hill climbing of
`hill_climbing`, over the entropy counting both share (`entropy_terms`); and the restricted
k-BAN (`kban`, greedy leave-one-out over the scorer of `kban_scorer`)."""
