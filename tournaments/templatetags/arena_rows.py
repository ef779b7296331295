"""The long lists of a tournament's page (standings rows, bracket matches, the head-to-head's
cells) written in Python: the same HTML as a template loop, a tenth of the time. A 1,024-entrant
Swiss's page spent 800 ms in the template loops over its 1,024 standings rows and 512 matches
of a round (manage.py bench_big); these tags keep the templates' markup in one place each."""

from __future__ import annotations

from django import template
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString
from django.utils.text import Truncator

register = template.Library()

ID_PLACEHOLDER = 987654321  # reversed once, then replaced by each match's id


@register.simple_tag
def standings_rows(rows) -> SafeString:
    """`<tr>`s of tournaments/_standings_table.html: rank, entrant, metrics, rating."""
    return SafeString(
        "\n".join(
            f"<tr><td>{row['rank']}</td><td>{escape(row['entrant']['name'])}</td>"
            + "".join(f"<td>{escape(metric(v))}</td>" for v in row["cells"])
            + f"<td>{escape(row['rating'] or '-')}</td></tr>"
            for row in rows
        )
    )


@register.simple_tag(takes_context=True)
def entrant_rows(context, entrants) -> SafeString:
    """`<tr>`s of the entrants table of tournaments/_registration.html (`entrants`, and the
    page's `tournament`, `may_withdraw`, `is_organiser`)."""
    request = context.get("request")
    may_withdraw, is_organiser = context.get("may_withdraw"), context.get("is_organiser")
    withdraw = ""
    if may_withdraw:
        withdraw = format_html(
            '<form method="post" action="{}" class="inline">'
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">',
            reverse("web:withdraw", args=[context["tournament"].pk]),
            get_token(request) if request is not None else "",
        )
    users: dict[str, str] = {}
    lines = []
    for row in entrants:
        entrant, bot = row["entrant"], row["entrant"]["bot"]
        kind = ("remote bot" if bot["url"] else "bot") if bot else "human"
        owners = ", ".join(
            f'<a href="{users.setdefault(name, escape(reverse("web:user", args=[name])))}">'
            f"{escape(name)}</a>"
            for name in row["owners"]
        )
        button = ""
        if may_withdraw and (row["mine"] or is_organiser):
            button = (
                f'{withdraw}<input type="hidden" name="entrant" value="{entrant["pk"]}">'
                f'<button type="submit" data-withdraw="{escape(entrant["name"])}">Withdraw</button>'
                "</form>"
            )
        name = escape(entrant["name"])
        if entrant.get("bot_id"):  # the bot version's page
            name = f'<a href="{escape(reverse("web:bot", args=[entrant["bot_id"]]))}">{name}</a>'
        lines.append(
            f"<tr><td>{name}</td><td>{kind}</td><td>{owners}</td>"
            f"<td>{escape(bot['label']) if bot else ''}</td><td>{button}</td></tr>"
        )
    return SafeString("\n".join(lines))


def metric(value) -> str:
    """What `{{ value|floatformat:"-2" }}` shows (a whole number bare, else two decimals, in
    the page's locale), without its Decimal arithmetic: a tenth of the cost."""
    if value is None or isinstance(value, bool) or not isinstance(value, int | float):
        return "" if value is None else str(value)
    if value == int(value):
        return number_format(int(value), 0)
    return number_format(round(value, 2), 2)


@register.simple_tag
def bracket_matches(matches, match_url: str) -> SafeString:
    """The `arena-match` boxes of one round of tournaments/_bracket.html."""
    pattern = reverse(match_url, args=[ID_PLACEHOLDER])
    boxes = []
    for m in matches:
        if m["match"]:
            key = format_html(
                '<a href="{}">{}</a>',
                pattern.replace(str(ID_PLACEHOLDER), str(m["match"])),
                m["key"],
            )
        else:
            key = format_html("{}", m["key"])
        sides = []
        for side, wins, shown in (
            (m["a"], m["wins"][0], True),
            (m["b"], m["wins"][1], not m.get("is_bye")),
        ):
            won = bool(m["winner"] and side and m["winner"] == side["id"])
            sides.append(
                (" arena-winner" if won else "", wins if m["games_played"] and shown else "")
            )
        tiebreak = (
            format_html('\n  <div class="arena-tiebreak">{}</div>', m["tiebreak"])
            if m.get("tiebreak")
            else ""
        )
        boxes.append(
            format_html(
                '<div class="arena-match arena-{}" data-key="{}"{}>\n'
                '  <div class="arena-key">{} · {}</div>\n'
                '  <div class="arena-side{}"><span class="arena-name">{}</span> '
                '<span class="arena-score">{}</span></div>\n'
                '  <div class="arena-side{}"><span class="arena-name">{}</span> '
                '<span class="arena-score">{}</span></div>{}\n'
                "</div>",
                m["status"],
                m["key"],
                # the box it leads to, for the bracket's lines (website/static/website/bracket)
                format_html(' data-next="{}"', m["next"]) if m.get("next") else "",
                key,
                m["status"],
                sides[0][0],
                m["a_label"],
                sides[0][1],
                sides[1][0],
                m["b_label"],
                sides[1][1],
                tiebreak,
            )
        )
    return SafeString("\n".join(boxes))


@register.simple_tag
def heatmap_cells(heatmap) -> SafeString:
    """The names, numbers and cells of tournaments/_heatmap.html's SVG (a head-to-head of 16
    entrants is 240 cells of four elements each)."""
    label_width, side = heatmap["label_width"], heatmap["cell"] - 2
    lines = []
    for number, label in enumerate(heatmap["labels"], start=1):
        lines.append(
            f'<text x="{label_width}" y="{label["y"]}" text-anchor="end">'
            f"{escape(Truncator(label['name']).chars(22))}</text>\n"
            f'<text x="{label["x"]}" y="14" text-anchor="middle">{number}</text>'
        )
    for c in heatmap["cells"]:
        percent = (
            f'\n  <text x="{c.x + 13}" y="{c.y + 17}" text-anchor="middle">{c.percent}</text>'
            if c.games
            else ""
        )
        lines.append(
            f'<g class="heat-cell" data-row="{c.row}" data-col="{c.col}" data-wins="{c.wins}" '
            f'data-games="{c.games}">\n'
            f"  <title>{escape(c.words)}</title>\n"
            f'  <rect x="{c.x}" y="{c.y}" width="{side}" height="{side}" fill="{escape(c.colour)}" '
            f'stroke="#d6dae1"></rect>{percent}\n'
            "</g>"
        )
    return SafeString("\n".join(lines))
