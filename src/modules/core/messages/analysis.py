"""Messages of the analysis of sources (``analysis.*``): disagreements between them and their kinds."""

from __future__ import annotations

from research.modules.core.language import Language

from typing import Any

_ATTRIBUTES = {
    "height": ("height", "高さ・標高"), "distance": ("distance", "距離"), "length": ("length", "長さ"),
    "depth": ("depth", "深さ"), "width": ("width", "幅"), "area": ("area", "面積"),
    "population": ("population", "人口"), "visitors": ("number of visitors", "来訪者数"),
    "employees": ("number of employees", "従業員数"), "price": ("price", "価格・料金"),
    "revenue": ("revenue", "売上"), "temperature": ("temperature", "気温・温度"),
    "eruption": ("date of the eruption", "噴火の時期"), "founding": ("founding date", "設立の時期"),
    "birth": ("date of birth", "生年"), "death": ("date of death", "没年"), "opening": ("opening date", "開業の時期"),
    "release": ("release date", "公開・発売の時期"), "registration": ("date of listing", "登録の時期"),
    "completion": ("completion date", "完成の時期"), "duration": ("duration", "期間"), "speed": ("speed", "速度"),
    "weight": ("weight", "重さ"),
}
_DIMENSIONS = {
    "length": ("a length", "長さ"), "mass": ("a weight", "重さ"), "percent": ("a percentage", "割合"),
    "count": ("a count", "数"), "yen": ("an amount in yen", "金額（円）"), "usd": ("an amount in dollars", "金額（ドル）"),
    "day": ("a number of days", "日数"), "hour": ("a number of hours", "時間"), "minute": ("a number of minutes", "分数"),
    "degree": ("a temperature", "温度"), "date": ("a date", "日付"),
}
_KINDS = {
    "official": ("official", "公的機関"), "academic": ("academic", "学術"), "reference": ("reference", "事典・資料"),
    "news": ("news", "報道"), "company": ("company", "企業"), "unknown": ("unknown", "不明"),
    "blog": ("blog", "ブログ"), "forum": ("forum", "掲示板・Q&A"),
}

MESSAGES: dict[str, dict[str, str]] = {
    **{f"analysis.attribute.{k}": {"en": en, "ja": ja} for k, (en, ja) in _ATTRIBUTES.items()},
    **{f"analysis.dimension.{k}": {"en": en, "ja": ja} for k, (en, ja) in _DIMENSIONS.items()},
    **{f"analysis.kind.{k}": {"en": en, "ja": ja} for k, (en, ja) in _KINDS.items()},
    "analysis.disagreements_found": {
        "en": "The sources disagree on {count} point(s); the answer is asked to give both values.",
        "ja": "資料間で{count}点の食い違いがあります。回答では両方の値を示すよう指示しました。",
    },
    "analysis.judge_failed": {
        "en": "The model could not judge {count} possible disagreement(s) between sources ({reason}); they are not reported.",
        "ja": "資料間の食い違いの可能性{count}件をモデルが判定できませんでした（{reason}）。これらは記載していません。",
    },
    "analysis.stated_both": {"en": "the answer gives each value", "ja": "回答には両方の値を記載"},
    "analysis.stated_some": {
        "en": "the answer gives only {given}; the other value is above",
        "ja": "回答には {given} の値のみ記載。もう一方の値は上記のとおり",
    },
    "analysis.stated_none": {"en": "the answer gives neither value", "ja": "回答にはどちらの値も記載なし"},
    "analysis.versus": {"en": "vs", "ja": "対"},
    "analysis.qualifier.last": {"en": "{name} (the last)", "ja": "{name}（最後）"},
    "analysis.qualifier.first": {"en": "{name} (the first)", "ja": "{name}（最初）"},
}


def disagreement_line(item: Any, lang: Language) -> str:
    """One disagreement (``state.models.Disagreement``) as a line: what it is about, then each
    side with its citations ("height: 3,776 m [S1] vs 3,778 m [S2]"). The draft prompt and
    progress.md say it this way."""
    versus = MESSAGES["analysis.versus"]
    sides = f" {versus.get(lang, versus['en'])} ".join(
        f"{p.value} " + "".join(f"[{label}]" for label in p.labels) for p in item.positions)
    return f"{attribute_name(item.attribute, item.dimension, lang, item.qualifier)}: {sides}"


def attribute_name(attribute: str | None, dimension: str, lang: Language, qualifier: str | None = None) -> str:
    """What the sources disagree about, in ``lang``: the attribute, else the kind of value."""
    table = _ATTRIBUTES if attribute in _ATTRIBUTES else _DIMENSIONS
    key = attribute if attribute in _ATTRIBUTES else dimension
    en, ja = table.get(key, ("a value", "値"))
    name = ja if lang == "ja" else en
    template = MESSAGES.get(f"analysis.qualifier.{qualifier}")
    return template[lang if lang in template else "en"].format(name=name) if template else name
