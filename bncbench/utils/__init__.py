"""Small helpers that several folders of bncbench use and that know nothing of benchmarks:
writing a file atomically (`files`), the "did you mean" hint of an error message (`suggest`).

What belongs here: code with no bncbench concept in it (no data set, classifier, store or
config), needed by two or more folders. Modules here import only the standard library and no
other bncbench module, so any module may import them.
"""
