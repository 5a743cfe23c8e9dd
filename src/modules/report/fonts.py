"""A Japanese-capable TrueType font for report.pdf, found and registered with reportlab.

Order: the user's ``RESEARCH_PDF_FONT`` (TTF, TTC, or OTF) · IPAexGothic shipped by the
``matplotlib_fontja`` package (a project dependency, so a fresh install can always typeset
Japanese) · common system fonts. reportlab embeds TrueType outlines as subsets, which is
what makes the PDF readable on any viewer; it cannot embed CFF (PostScript) outlines, so
a CFF font is converted once to TrueType with fontTools and cached.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from research.modules.core.errors import UsageError, UserFacingError
from research.modules.core.files import atomic_write

if TYPE_CHECKING:
    from research.modules.core.settings import Settings

# TrueType system fonts with Japanese glyphs, most common first. The CFF ones at the end
# (Noto CJK) work through conversion, which takes a while once.
SYSTEM_FONT_CANDIDATES: tuple[str, ...] = (
    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/usr/share/fonts/truetype/takao-gothic/TakaoGothic.ttf",
    "/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/ipa-gothic/ipag.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "C:/Windows/Fonts/YuGothR.ttc",
    "C:/Windows/Fonts/msgothic.ttc",
    "C:/Windows/Fonts/meiryo.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
)

_PROBE = "あ"  # a font that maps this has Japanese glyphs
_REGISTERED: dict[Path, str] = {}


def bundled_font_path() -> Path | None:
    """IPAexGothic from matplotlib_fontja, located without importing matplotlib."""
    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "fonts" / "ipaexg.ttf"
    return path if path.is_file() else None


def _outline_kind(path: Path) -> str:
    """``"truetype"``, ``"cff"`` or ``"unknown"`` for the first face of a font file."""
    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(str(path), fontNumber=0, lazy=True)
    except (TTLibError, OSError, ValueError, AssertionError):
        return "unknown"
    try:
        if "glyf" in font:
            return "truetype"
        if "CFF " in font or "CFF2" in font:
            return "cff"
        return "unknown"
    finally:
        font.close()


def _has_japanese(path: Path) -> bool:
    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(str(path), fontNumber=0, lazy=True)
        try:
            cmap = font.getBestCmap() or {}
            return ord(_PROBE) in cmap
        finally:
            font.close()
    except (TTLibError, OSError, ValueError, AssertionError, KeyError):
        return False


def find_japanese_font(settings: Settings | None = None) -> Path | None:
    """The font file report.pdf will use, or None when there is none on this machine.

    A font the user named in ``settings.pdf_font`` wins; if it does not exist that is a
    usage error (silently using another font would hide the mistake)."""
    chosen = settings.pdf_font if settings is not None else None
    if chosen:
        path = Path(chosen).expanduser()
        if not path.is_file():
            raise UsageError("pdf.font_missing", path=str(path))
        return path
    bundled = bundled_font_path()
    if bundled is not None:
        return bundled
    for candidate in SYSTEM_FONT_CANDIDATES:
        path = Path(candidate)
        if path.is_file() and _outline_kind(path) != "unknown" and _has_japanese(path):
            return path
    return None


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "research-assistant" / "fonts"


def truetype_copy_of_cff(path: Path, *, cache_dir: Path | None = None) -> Path:
    """A TrueType version of a CFF-outline font (first face), converted once and cached.

    Cubic curves become quadratic ones (cu2qu, error below one font unit), which is how
    OpenType CFF fonts are usually turned into TrueType."""
    stat = path.stat()
    key = hashlib.sha256(f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    folder = cache_dir or _cache_dir()
    target = folder / f"{path.stem}-{key}.ttf"
    if target.is_file():
        return target
    converted = _convert_cff_to_truetype(path)
    data = io.BytesIO()
    converted.save(data)
    atomic_write(target, data.getvalue())  # the one atomic, fsynced write: never a torn font
    return target


def _convert_cff_to_truetype(path: Path) -> Any:
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(str(path), fontNumber=0)
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        # CFF contours run counter-clockwise; TrueType wants them clockwise.
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    for tag in ("CFF ", "CFF2", "VORG"):
        if tag in font:
            del font[tag]
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attribute in ("maxZones",):
        setattr(maxp, attribute, 1)
    for attribute in (
        "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
        "maxStackElements", "maxSizeOfInstructions", "maxComponentElements", "maxComponentDepth",
        "maxPoints", "maxContours", "maxCompositePoints", "maxCompositeContours",
    ):
        setattr(maxp, attribute, 0)
    font["head"].glyphDataFormat = 0
    post = font["post"]
    post.formatType = 3.0  # glyph names are not needed for embedding and bloat the file
    font.sfntVersion = "\x00\x01\x00\x00"
    return font


def register_font(path: Path) -> str:
    """Register ``path`` with reportlab (once per process) and return its font name.

    Bold and italic map to the same face: Japanese fonts such as IPAexGothic ship one
    weight, and reportlab has no synthetic bold; this keeps ``<b>`` from failing."""
    path = Path(path)
    if path in _REGISTERED:
        return _REGISTERED[path]
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    kind = _outline_kind(path)
    if kind == "unknown":
        raise UserFacingError("pdf.font_unusable", path=str(path), reason="not a TrueType/OpenType font")
    source = path
    if kind == "cff":
        try:
            source = truetype_copy_of_cff(path)
        except Exception as exc:  # fontTools raises many types on odd fonts; any means "cannot use"
            raise UserFacingError("pdf.font_cff", path=str(path), reason=str(exc) or type(exc).__name__) from None
    name = "ResearchJP-" + hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:10]
    try:
        font = TTFont(name, str(source), subfontIndex=0)
    except (TTFError, OSError, ValueError, KeyError) as exc:
        raise UserFacingError("pdf.font_unusable", path=str(path), reason=str(exc).splitlines()[0]) from None
    pdfmetrics.registerFont(font)
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(name, bold, italic, name)
    _REGISTERED[path] = name
    return name


def register_japanese_font(settings: Settings | None = None, font_path: Path | None = None) -> str:
    """Find (unless ``font_path`` is given) and register the report font; its name."""
    path = font_path or find_japanese_font(settings)
    if path is None:
        raise UserFacingError("pdf.no_font")
    return register_font(Path(path))


def forget_registered_fonts() -> None:
    """Drop this process's registration cache so the next call loads the font file again
    (used by the benchmark to time registration; reportlab keeps the old entry harmlessly)."""
    _REGISTERED.clear()


# --------------------------------------------------------------------------- characters the report font lacks

# A report font (IPAexGothic) lacks emoji, most scripts other than Japanese and Latin, and
# some of the typography models write. Each such character is drawn in the first font that
# has it: DejaVu Sans, shipped inside matplotlib (installed with matplotlib_fontja, so every
# install has it), then whatever this machine's fontconfig finds. A font without outlines
# (colour-bitmap emoji) cannot be embedded and is passed over.
_FALLBACK_QUERIES_PER_PROCESS = 256  # fc-list calls at most: a report in a script no font has stays fast
_fallback_for: dict[str, Path | None] = {}
_cmaps: dict[Path, frozenset[int]] = {}
_fc_queries = 0


def bundled_fallback_fonts() -> list[Path]:
    """DejaVu Sans from matplotlib's own data, located without importing matplotlib."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"
    return [path for path in (folder / "DejaVuSans.ttf",) if path.is_file()]


def _cmap(path: Path) -> frozenset[int]:
    """The code points ``path`` maps (empty for a font that cannot be embedded)."""
    if path not in _cmaps:
        from fontTools.ttLib import TTFont, TTLibError

        codes: frozenset[int] = frozenset()
        if _outline_kind(path) == "truetype":  # CFF ones would need converting: not worth it per glyph
            try:
                font = TTFont(str(path), fontNumber=0, lazy=True)
                try:
                    codes = frozenset(font.getBestCmap() or {})
                finally:
                    font.close()
            except (TTLibError, OSError, ValueError, AssertionError, KeyError):
                pass
        _cmaps[path] = codes
    return _cmaps[path]


def _fontconfig_fonts(char: str) -> list[Path]:
    """This machine's font files that fontconfig says have ``char`` (none without fc-list)."""
    global _fc_queries
    import shutil
    import subprocess

    program = shutil.which("fc-list")
    if program is None or _fc_queries >= _FALLBACK_QUERIES_PER_PROCESS:
        return []
    _fc_queries += 1
    try:
        listed = subprocess.run([program, "--format", "%{file}\n", f":charset={ord(char):x}"],
                                capture_output=True, text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [Path(line) for line in sorted(set(listed.splitlines())) if line.endswith((".ttf", ".otf", ".ttc"))]


def fallback_font_for(char: str) -> Path | None:
    """The font file to draw ``char`` in when the report font lacks it, or None."""
    if char not in _fallback_for:
        found = next((path for path in bundled_fallback_fonts() if ord(char) in _cmap(path)), None)
        if found is None:  # the machine's fonts are asked only for what the bundled one lacks
            found = next((path for path in _fontconfig_fonts(char) if ord(char) in _cmap(path)), None)
        _fallback_for[char] = found
    return _fallback_for[char]
