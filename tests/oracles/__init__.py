"""Independent oracles: slow, obviously correct reference implementations written from docs/algorithms.md
(plain Python loops, no bncbench code), and the Weka 3.6 driver. Tests compare the package against them."""
