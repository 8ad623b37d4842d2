"""From a loaded data set to integer codes: discretisation, missing values, encoding, folds."""
