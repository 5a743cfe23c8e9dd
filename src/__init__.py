"""A local-first, bilingual research assistant."""
__version__ = "0.1.0"
