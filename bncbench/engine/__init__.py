"""Running experiments: units of work, executors, the results store and progress display."""
