"""The reverse proxy's configuration (deploy/nginx.conf, docker-compose's `proxy` service), and
the same file made to run on this machine in front of a local server (`bench_slow_clients`):
only the address it listens on and its upstreams' addresses change."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from django.conf import settings

NGINX_CONF = Path(settings.BASE_DIR) / "deploy" / "nginx.conf"

# The three lines that name the compose network's addresses.
LISTEN = re.compile(r"^(\s*)listen 80;$", re.MULTILINE)
WEB = re.compile(r"^(\s*)server web:8000;$", re.MULTILINE)
ASGI = re.compile(r"^(\s*)set \$asgi asgi:8001;$", re.MULTILINE)


class ConfigError(ValueError):
    pass


def local_config(text: str, *, listen: str, web: str, asgi: str) -> str:
    """`text` listening on `listen` (host:port), with gunicorn at `web`, the ASGI server at
    `asgi`, and nothing else changed."""
    for pattern, replacement in (
        (LISTEN, rf"\g<1>listen {listen};"),
        (WEB, rf"\g<1>server {web};"),
        (ASGI, rf"\g<1>set $asgi {asgi};"),
    ):
        text, count = pattern.subn(replacement, text)
        if count != 1:
            raise ConfigError(f"deploy/nginx.conf: expected one line like {pattern.pattern!r}")
    return text


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )


def start_nginx(
    nginx: str, folder: Path, *, listen: str, web: str, asgi: str, log
) -> subprocess.Popen:
    """nginx with deploy/nginx.conf made local (`local_config`), in the foreground, everything
    it writes under `folder` (its temporary files too: the package's folders need root), no
    access log."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "logs").mkdir(exist_ok=True)
    text = local_config(NGINX_CONF.read_text(), listen=listen, web=web, asgi=asgi)
    temp_paths = "".join(
        f"\n    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = text.replace("http {", "http {" + temp_paths, 1)
    conf = folder / "nginx.conf"
    conf.write_text(text.replace("access_log /dev/stdout;", "access_log off;"))
    return subprocess.Popen(
        [nginx, "-p", str(folder), "-c", str(conf)]
        + ["-g", f"daemon off; pid {folder / 'nginx.pid'};"],
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
