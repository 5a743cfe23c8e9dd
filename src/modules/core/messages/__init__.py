"""Message catalogues by area, one module each (e.g. ``verify.py``), each defining
``MESSAGES: dict[str, dict[str, str]]`` with an ``en`` and a ``ja`` text per key.

``core/i18n.py`` merges them with its own general catalogue; a key defined twice is an
error at import, so two areas can never silently overwrite each other's wording.
"""
