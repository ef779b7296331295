"""`python manage.py verify_match ID [--commitment HEX] [--json]`

Checks a finished match: its revealed seed hashes to its commitment (the one you saw while it
was played, if you give it), every game's seed derives from the match seed, and dealing each
game again from its seed gives exactly the cards of its record. Exit codes: 0 every check
passed, 1 a check failed, 2 no such match or the match is not finished yet.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from tournaments.models import Match
from tournaments.verification import NotVerifiable, verify_match

FAILED = 1
NOT_VERIFIABLE = 2


class Command(BaseCommand):
    requires_system_checks = []
    help = __doc__.split("\n\n")[1].replace("\n", " ")

    def add_arguments(self, parser):
        parser.add_argument("match", help="the match id")
        parser.add_argument("--commitment", help="the seed commitment published before the end")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args, **opts):
        try:
            match = Match.objects.select_related("tournament").get(pk=int(opts["match"]))
            report = verify_match(match, opts["commitment"])
        except (ValueError, OverflowError, Match.DoesNotExist):
            self.stderr.write(f"no match with id {opts['match']!r}")
            sys.exit(NOT_VERIFIABLE)
        except NotVerifiable as exc:
            self.stderr.write(str(exc))
            sys.exit(NOT_VERIFIABLE)
        if opts["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self.stdout.write(
                f"match {report['match']}: seed {report['seed']}, "
                f"commitment {report['seed_commitment']}"
            )
            for c in report["checks"]:
                self.stdout.write(f"  {'ok  ' if c['ok'] else 'FAIL'} {c['check']}: {c['detail']}")
            self.stdout.write("verified" if report["ok"] else "NOT verified: a check failed")
        if not report["ok"]:
            sys.exit(FAILED)
