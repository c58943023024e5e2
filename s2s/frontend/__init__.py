"""s2svec frontend."""
