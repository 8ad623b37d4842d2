"""Adaptive independence thresholding with target learning (paper 004): AIT (`ait`) over TAN or
KDB, and the knee-point threshold routine it uses at training and at classification time
(`thresholding`)."""
