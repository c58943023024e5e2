"""s2svec analysis."""
