"""`python -m engine variants`: every registered variant with its players, presets and options,
as the Markdown the README embeds (a test keeps the two in step)."""

from __future__ import annotations

import json

from .plugins import registry


def _value(value) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def variants_markdown() -> str:
    lines = []
    for name, variant in sorted(registry().variants.items()):
        info = variant.describe()
        players = " or ".join(str(p) for p in info["players"])
        lines.append(f"### {info['title']} (`{name}`, {players} players)")
        lines.append("")
        lines.append(info["summary"])
        lines.append("")
        lines.append("| option | type | default | allowed | meaning |")
        lines.append("|---|---|---|---|---|")
        for option in info["options"]:
            if "choices" in option:
                allowed = ", ".join(_value(c) for c in option["choices"])
            elif "minimum" in option:
                allowed = f"{option['minimum']} to {option['maximum']}"
            elif option["type"] == "bool":
                allowed = "true, false"
            else:
                allowed = "increasing positive integers"
            lines.append(
                f"| `{option['name']}` | {option['type']} | `{_value(option['default'])}` | {allowed} "
                f"| {option['help']} |"
            )
        lines.append("")
        if info["presets"]:
            lines.append("Presets:")
            for preset, values in sorted(info["presets"].items()):
                settings = ", ".join(f"`{k}={_value(v)}`" for k, v in values.items())
                lines.append(f"- `{preset}`: {settings}")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def run_variants(args) -> int:
    print(variants_markdown(), end="")
    return 0
