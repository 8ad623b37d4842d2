"""The report layer: what gathers values from a results folder (results.py) for a table, a figure or the HTML page."""
