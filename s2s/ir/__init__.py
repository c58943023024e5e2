"""The s2svec SSA IR: types, values, builder, printer, parser, verifier, interpreter."""
