"""s2svec: a source-to-source vectorizer for C with OpenMP SIMD annotations."""

__version__ = "0.1.0"
