"""s2svec transform."""
