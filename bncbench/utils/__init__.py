"""Small helpers with no benchmark concept that several folders of bncbench use (docs/architecture.md)."""
