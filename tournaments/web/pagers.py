"""The pagers of a tournament's page (standings, entrants, a round's matches): which page a
query parameter asks for, and the links to the pages beside it."""

from __future__ import annotations

from django.core.paginator import InvalidPage, Page, Paginator


def page_of(paginator: Paginator, number) -> Page:
    """The page `number` (a query parameter) asks for; the first when it names none of them
    (missing, not a whole number, 0, past the last)."""
    try:
        return paginator.page(number)
    except InvalidPage:
        return paginator.page(1)


def pagers(request, pages: dict[str, Page]) -> dict[str, dict]:
    """Each pager's links (`pages`: the query parameter -> the page shown): the same URL with
    that parameter set to the previous or the next page, the other pagers at the pages they
    show (a bad number as the first it fell back to), every other parameter kept (the round).
    The first page is the URL without its parameter."""
    shown = request.GET.copy()
    for param, page in pages.items():
        set_page(shown, param, page.number)

    def url(param: str, number: int) -> str:
        query = shown.copy()
        set_page(query, param, number)
        return f"?{query.urlencode()}" if query else request.path

    return {
        param: {
            "id": param.replace("_", "-"),
            "page": page,
            "previous": url(param, page.previous_page_number()) if page.has_previous() else None,
            "next": url(param, page.next_page_number()) if page.has_next() else None,
        }
        for param, page in pages.items()
    }


def set_page(query, param: str, number: int) -> None:
    if number == 1:
        query.pop(param, None)
    else:
        query[param] = str(number)


def round_links(request, rounds: list[int], pages: dict[str, Page]) -> list[tuple[int, str]]:
    """A league's round links: the round, the other pagers kept, its matches from the first."""
    query = request.GET.copy()
    for param, page in pages.items():
        set_page(query, param, page.number)
    query.pop("matches_page", None)
    links = []
    for number in rounds:
        query["round"] = str(number)
        links.append((number, f"?{query.urlencode()}"))
    return links


def slice_of(page: Page) -> dict:
    """Where the page starts in its list, and its length: what the page's script redraws."""
    return {"offset": (page.number - 1) * page.paginator.per_page, "limit": page.paginator.per_page}
