"""Kernels that two or more classifier families share: counting (`counts`), probability
estimators (`estimators`), conditional probability tables (`tables`), information measures
(`infotheory`), attribute orders with their tie rules (`ordering`) and the structure learners
that several families run (`structure`: Prim's maximum spanning tree, KDB's parent choice).
Code that one family alone uses lives in that family's folder."""
