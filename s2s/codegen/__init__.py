"""s2svec codegen."""
