"""Settings, all from the environment, with defaults that need no server at all.

- `DATABASE_URL` (dj-database-url): PostgreSQL in production, e.g.
  `postgres://postgres@127.0.0.1:5432/truco_arena`; default a SQLite file under `var/`.
- `CELERY_BROKER_URL`, else `REDIS_URL`: the Celery broker, e.g. `redis://127.0.0.1:6379/0`;
  default kombu's `filesystem://` transport with folders under `var/`, so a separate worker
  process works with nothing installed.
- `TRUCO_VAR_DIR`: where the default database and broker folders live (default `./var`).
- `DJANGO_DEBUG` (default on), `DJANGO_SECRET_KEY` (required when debug is off; with debug on
  and no key, a random one made once and kept in `var/secret-key.txt`),
  `DJANGO_ALLOWED_HOSTS` (comma-separated).
- `TRUCO_DEAL_SECRET`: keys the seeds of the daily deals (default: derived from the secret key).
- `TRUCO_QUEUE`: the Celery queue the match tasks use (default `truco`).
- `TRUCO_MATCH_LEASE_SECONDS`: how long a claimed match stays a worker's without a heartbeat
  before another worker may take it over (default 120).
- `TRUCO_MATCH_MAX_ATTEMPTS`: claims of one match before it is marked failed (default 5).
- `TRUCO_TASK_GAMES` (default 20), `TRUCO_TASK_SPREAD` (4): short matches go several to a task,
  about that many games in all, the matches published at once in at least that many tasks
  (tournaments/dispatch.py); `TRUCO_TASK_QUICK_GAMES` (100): the same between trusted built-in
  bots of `TRUCO_INSTANT_BOT_PLUGINS`, whose games take milliseconds. `TRUCO_PROFILE_DIR`:
  workers profile their tasks there.
- `TRUCO_TRUSTED_BOT_PLUGINS`: bot plugins that run inside the worker (default the built-ins
  `random heuristic mcts`); any other runs in the jail (engine/jail, docs/bot-protocol.md).
- Bot bundles (docs/bots.md): `TRUCO_BUNDLE_MAX_MB` (zip, default 5), `TRUCO_BUNDLE_MAX_FILES`
  (200), `TRUCO_BUNDLE_MAX_UNPACKED_MB` (20); `TRUCO_VALIDATION_GAMES` (games of the smoke
  match per game setting, default 2), `TRUCO_VALIDATION_DECISION_SECONDS` (default: the
  decision time of the tournaments the version may enter, else the server's cap) and
  `TRUCO_MAX_VALIDATING_PER_USER` (versions of one user being validated at once, default 3).
- Where bundles are kept: `TRUCO_BUNDLE_STORAGE` (`filesystem`, the default, under var/; `s3`:
  an S3-compatible bucket through django-storages, set by `AWS_STORAGE_BUCKET_NAME`,
  `AWS_S3_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_S3_REGION_NAME`);
  each machine's unpacked copies: `TRUCO_BUNDLE_CACHE_DIR`, `TRUCO_BUNDLE_CACHE_MB` (default
  1024), `TRUCO_BUNDLE_CACHE_ENTRIES` (200). `TRUCO_MACHINE_NAME`: this machine's name in
  match claims (default the host name; docs/operations.md).
- `TRUCO_MAX_BOT_DECISION_SECONDS`: the most a bot may think per decision at any table
  (default 10); a table's `turn_seconds` lowers it. `TRUCO_MAX_TABLES_PER_PLAYER`: the tables
  one player may have in play at once (default 10).
- `TRUCO_LOGIN_FAILURE_LIMIT` (default 10) wrong passwords for one username from one address
  lock that pair out for `TRUCO_LOGIN_COOLOFF_MINUTES` (default 15); `TRUCO_TOKEN_RATE`
  (default `60/minute`): requests per address to /api/auth/token/.
- `TRUCO_TRUSTED_PROXIES`: the reverse proxies (addresses or CIDRs, comma-separated) whose
  X-Forwarded-For names the client (config/client_address.py; docker-compose's nginx); default
  none: X-Forwarded-For is ignored and the peer's address is the client's.
- `TRUCO_USERS_CREATE_TOURNAMENTS` (default off): any signed-in user may create tournaments and
  organise those they created (open registration, start them); staff always may.
- `TRUCO_REMOTE_BOTS` (default off), `TRUCO_REMOTE_BOT_HOSTS`, `TRUCO_REMOTE_BOT_NETWORKS`: bots
  that are URLs, which hosts they may be on, and which non-public networks are allowed
  (docs/remote-bots.md, engine/remote_policy.py).
- `TRUCO_BOT_SEED_SECRET`: the secret bots' random seeds are derived from (default: from
  DJANGO_SECRET_KEY). `TRUCO_UNSAFE_UNJAILED_BOTS=1` runs untrusted bots WITHOUT the jail: for a
  developer's own machine only.
- `CELERY_VISIBILITY_TIMEOUT`: seconds before Redis hands an unacknowledged message (its worker
  died) to another worker (default 300); `CELERY_RESTORE_INTERVAL`: how often workers look.
- Tables where people play (tables/host.py): `TRUCO_TABLES` (`hosts`: table hosts keep them and
  push their states over WebSockets; `inline`: each request plays them, no push; default `hosts`
  when a channel layer is given or `TRUCO_TABLES` says so, else `inline`), `CHANNELS_REDIS_URL`
  (default REDIS_URL: the Channels layer between web servers and table hosts; without one the
  layer is in memory and the host runs inside the one web process: the embedded default),
  `TRUCO_CHANNEL_LAYER` (with Redis: `pubsub`, the default, or `core`: channels_redis' two
  layers), `TRUCO_CHANNEL_PREFIX` (the names of the site's channels in Redis, default `asgi`:
  give each site sharing one Redis its own, as pub/sub ignores database numbers),
  `TRUCO_TABLE_LEASE_SECONDS` (how long a table stays a dead host's, default 10),
  `TRUCO_TABLE_IDLE_SECONDS` (an idle table gives its bot processes back, default 120),
  `TRUCO_TABLE_HOST_TABLES` (tables one host holds at most, default 500),
  `TRUCO_TABLE_HOST_THREADS` (robots thinking at once on a host, default 64; they hold no
  database connection), `TRUCO_TABLE_HOST_DB_THREADS` (a host's threads that read and write
  the tables, a database connection each, default 8).
- `TRUCO_FOLLOW_CACHE_SECONDS`: a tournament's standings and bracket, which its page's
  followers ask for every 3 s, are built once for all of them at most this often (default 2;
  0: at every request).
- `TRUCO_OPEN_TABLE_HOURS`: a table still waiting for people this many hours after it was
  opened is abandoned: the lobby no longer offers it (default 12).
- `DJANGO_DEBUG_PAGES` (default off) or `DJANGO_INTERNAL_IPS` (comma-separated addresses):
  with DEBUG on, Django's debug 404 page (which lists every URL pattern) for the developer only,
  everyone or those addresses; any other visitor gets the site's own 404 page
  (website/not_found.py).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from config.client_address import parse_trusted_proxies

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    try:
        return int(value) if value.strip() else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "")
    try:
        return float(value) if value.strip() else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}") from None


VAR_DIR = Path(os.environ.get("TRUCO_VAR_DIR") or BASE_DIR / "var")


def local_secret_key(path: Path) -> str:
    """A development site's secret key: random, made once and kept in `path` (readable by its
    owner only), so that the web server and the worker share it. A key written in this file
    would be everyone's: the daily tables' deals are keyed with it (tournaments/seeds.py)."""
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key + "\n")
    try:
        os.link(draft, path)  # whole or not at all: a process reading it never sees half
    except FileExistsError:  # another process of the site made it first
        key = path.read_text(encoding="ascii").strip()
    finally:
        draft.unlink()
    return key


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    try:
        SECRET_KEY = local_secret_key(VAR_DIR / "secret-key.txt")
    except OSError as exc:
        raise ImproperlyConfigured(
            f"cannot keep a development secret key in {VAR_DIR / 'secret-key.txt'} "
            f"({exc.strerror}): set DJANGO_SECRET_KEY, or TRUCO_VAR_DIR to a folder of yours"
        ) from None
# Keys the seeds of the daily deals (tournaments/seeds.py), which are otherwise computed from
# public facts only; by default derived from the secret key, never the key itself.
TRUCO_DEAL_SECRET = (
    os.environ.get("TRUCO_DEAL_SECRET")
    or hashlib.sha256(f"truco-deal-secret:{SECRET_KEY}".encode()).hexdigest()
)
# The local names are always allowed: health checks run inside the container.
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"] + [
    h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not from a CDN
    "rest_framework.authtoken",
    "axes",  # locks out repeated wrong passwords (login page, admin, API token)
    # The apps, lowest layer first (docs/architecture.md): each uses only those above it here.
    "stack",
    "players",
    "submitted_bots",
    "tournaments",
    "tables",
    "website",
]

# The load benchmarks' meters (stack/metering.py): queries and server time of each request and
# of each table host command. Off by default.
TRUCO_BENCH_METRICS = env_bool("TRUCO_BENCH_METRICS", False)

MIDDLEWARE = [
    # First: the client's address behind the site's reverse proxy (TRUCO_TRUSTED_PROXIES).
    "config.client_address.ClientAddressMiddleware",
    *(["stack.metering.QueryCountMiddleware"] if TRUCO_BENCH_METRICS else []),
    "django.middleware.security.SecurityMiddleware",
    # The static files through WhiteNoise: collected ones in production (gunicorn), straight
    # from the apps in debug (the embedded default's uvicorn serves them: no runserver).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An upload over the bundle limit is refused before anything reads its body.
    "submitted_bots.bundles.upload_limit.BundleUploadLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the visitor's choice (set_language's cookie), else the browser's.
    "django.middleware.locale.LocaleMiddleware",
    # Outside CommonMiddleware (whose 404s become redirects to the URL with a slash).
    "website.not_found.SiteNotFoundMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a login refused during a lockout into the 429 page (or JSON for the API).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database -----------------------------------------------------------------------------
DEFAULT_SQLITE_URL = f"sqlite:///{VAR_DIR / 'truco_arena.sqlite3'}"
DATABASES = {
    "default": dj_database_url.config(
        default=DEFAULT_SQLITE_URL,
        conn_max_age=env_int("DJANGO_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The worker, the web server and the command that runs the tournament share the file:
    # WAL lets readers through while one writes, IMMEDIATE makes every transaction take the
    # write lock up front (so compare-and-set claims are serialised), and a writer waits for
    # the lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    if DATABASES["default"]["NAME"] and DATABASES["default"]["NAME"] != ":memory:":
        Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The players of these variants speak Portuguese and Spanish: the pages and the table are
# translated (message catalogues in locale/, compiled .mo files committed; `make messages`).
LANGUAGES = [
    ("en", "English"),
    ("pt-br", "Português (Brasil)"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True


def bundle_storage_setting() -> dict:
    """Where uploaded bundles are kept. `TRUCO_BUNDLE_STORAGE=filesystem` (the default): a
    folder under var/, which only this machine sees. `s3`: a bucket of an S3-compatible object
    store (AWS, MinIO...) through django-storages, set with its own names:
    AWS_STORAGE_BUCKET_NAME (required), AWS_S3_ENDPOINT_URL (a MinIO's or another provider's
    address; empty for AWS), AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_S3_REGION_NAME."""
    kind = os.environ.get("TRUCO_BUNDLE_STORAGE", "").strip().lower() or "filesystem"
    if kind == "filesystem":
        return {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(VAR_DIR / "bundles")},
        }
    if kind != "s3":
        raise ImproperlyConfigured(
            f"TRUCO_BUNDLE_STORAGE must be 'filesystem' or 's3', not {kind!r}"
        )
    bucket = os.environ.get("AWS_STORAGE_BUCKET_NAME", "").strip()
    if not bucket:
        raise ImproperlyConfigured("TRUCO_BUNDLE_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME")
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "access_key": os.environ.get("AWS_ACCESS_KEY_ID") or None,
            "secret_key": os.environ.get("AWS_SECRET_ACCESS_KEY") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            "location": os.environ.get("TRUCO_BUNDLE_S3_PREFIX", "bundles"),
            # Names carry the version and the zip's SHA-256: one name is never two files.
            "file_overwrite": False,
            "default_acl": None,  # private: bundles are read with the credentials, never by URL
        },
    }


STATIC_URL = "static/"
# Where `collectstatic` gathers the static files gunicorn serves (WhiteNoise).
STATIC_ROOT = Path(os.environ.get("TRUCO_STATIC_ROOT") or BASE_DIR / "staticfiles")
WHITENOISE_USE_FINDERS = DEBUG  # debug: the apps' files as they are, nothing to collect
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Uploaded bot bundles (docs/bots.md): a folder under var/, or an S3-compatible object
    # store with TRUCO_BUNDLE_STORAGE=s3 (below), which workers on other machines read too.
    "bundles": bundle_storage_setting(),
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGIN_URL = "admin:login"

# --- login throttling (django-axes; docs/security.md) -----------------------------------
# Every password check goes through Axes first: after TRUCO_LOGIN_FAILURE_LIMIT wrong passwords
# for one username from one address, that pair is locked out for TRUCO_LOGIN_COOLOFF_MINUTES
# (each new try during the lockout starts the wait again). Locking the pair, not the address
# alone, lets others behind the same address log in; the API token view also has a rate per
# address (REST_FRAMEWORK below) against one address trying many usernames.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("TRUCO_LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("TRUCO_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "players.web.lockout.lockout_response"
AXES_VERBOSE = False
# The client's address, X-Forwarded-For read only from TRUCO_TRUSTED_PROXIES (config/
# client_address.py): one address cannot pose as many, a proxy does not make all one.
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_address"

# --- the reverse proxy in front (nginx in docker-compose.yml, deploy/nginx.conf) --------------
# The addresses or networks (CIDR) of the proxies whose X-Forwarded-For names the client,
# comma-separated. Empty (the default): no proxy is trusted, X-Forwarded-For is ignored.
TRUCO_TRUSTED_PROXIES = parse_trusted_proxies(os.environ.get("TRUCO_TRUSTED_PROXIES", ""))

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "restapi.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    # Bounded JSON (size, depth) and a message for every refused body: never a 500.
    "DEFAULT_PARSER_CLASSES": [
        "restapi.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "restapi.errors.exception_handler",
    # The throttles count REMOTE_ADDR only, which config.client_address resolved from trusted
    # proxies (DRF's default, None, took any X-Forwarded-For as the client's address).
    "NUM_PROXIES": 0,
    "DEFAULT_THROTTLE_RATES": {
        "login": os.environ.get("TRUCO_TOKEN_RATE") or "60/minute",
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Truco Arena API",
    # Swagger UI renders it as Markdown at the top of /api/docs/: the way back to the site.
    "DESCRIPTION": "Tournaments of Truco bots and players: variants, entrants, matches, "
    "game records and standings.\n\n[← Back to Truco Arena](/) · "
    "[Writing a bot](/docs/bots/) · [The bot protocol](/docs/bot-protocol/)",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Tournaments, rounds and matches each have a `status`: name each enum after its model, so
    # that the schema has no name collision (and no "Status5a1Enum").
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "BotStatusEnum": "submitted_bots.models.Bot.Status",
        "BotKindEnum": "submitted_bots.models.Bot.Kind",
        "PlayerKindEnum": "players.models.Player.Kind",
        "ChipTransferKindEnum": "tables.models.ChipTransfer.Kind",
        "TournamentKindEnum": "tournaments.models.Tournament.Kind",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        "tournaments": {"level": os.environ.get("TRUCO_LOG_LEVEL", "WARNING"), "propagate": True},
        "tables": {"level": os.environ.get("TRUCO_LOG_LEVEL", "WARNING"), "propagate": True},
    },
}

# --- Celery -------------------------------------------------------------------------------
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = (
    os.environ.get("CELERY_BROKER_URL")
    or os.environ.get("REDIS_URL")
    or "filesystem://localhost//"  # the host only spares kombu's "no hostname" warning
)
if CELERY_BROKER_URL.startswith("filesystem://"):
    for folder in ("queue", "control"):
        (BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
    # kombu's filesystem transport, made safe for several processes (stack/filesystem_broker.py)
    CELERY_BROKER_TRANSPORT = "stack.filesystem_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        "polling_interval": 0.05,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # A worker that dies (SIGKILL, lost machine) leaves its messages unacknowledged; Redis
        # gives them to another worker after this long. The match lease, not this timeout,
        # protects a long match from being played twice.
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300),
        "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
        "unacked_restore_throttle": 1,
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("TRUCO_QUEUE", "truco")
# One queue: people's tables are not Celery's (table hosts play them, tables/host.py); the
# tables' periodic sweep goes with the matches' tasks.
CELERY_TASK_QUEUES = [
    Queue(
        CELERY_TASK_DEFAULT_QUEUE,
        Exchange(CELERY_TASK_DEFAULT_QUEUE),
        routing_key=CELERY_TASK_DEFAULT_QUEUE,
    )
]
CELERY_TASK_ACKS_LATE = True  # a message is acknowledged once its match is recorded
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # a killed pool process gives its message back
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a worker holds no more matches than it can play
CELERY_TASK_IGNORE_RESULT = True  # results live in the database, not in a result backend
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_WORKER_SEND_TASK_EVENTS = False
# The sweep (tournaments/dispatch.py): re-sends the matches of dead workers and those the
# broker lost. Beat runs it in the compose file; `demo` and `run_tournament --workers` run it
# themselves on the embedded default.
TRUCO_SWEEP_SECONDS = env_int("TRUCO_SWEEP_SECONDS", 30)
# A queued match is taken for lost (when the broker holds fewer messages than there are queued
# matches) once it has been queued this long.
TRUCO_QUEUED_RESEND_SECONDS = env_int("TRUCO_QUEUED_RESEND_SECONDS", 30)
# The tables' sweep (tables/services.py): expired turns and stalled robots whose message was
# lost are caught up this often (a GET plays nothing).
TRUCO_TABLE_SWEEP_SECONDS = env_int("TRUCO_TABLE_SWEEP_SECONDS", 5)
# The ladder (tournaments/ladder_scheduler.py): how often its scheduler puts ready versions on
# their boards and starts matches; a new ladder's budget of games per hour (the admin sets each
# ladder's own), the duplicate pairs of a ladder match, the most matches of one ladder in flight
# at once, and the hours of matches its fairness between owners looks back on.
TRUCO_LADDER_SECONDS = env_int("TRUCO_LADDER_SECONDS", 10)
TRUCO_LADDER_GAMES_PER_HOUR = env_int("TRUCO_LADDER_GAMES_PER_HOUR", 600)
TRUCO_LADDER_PAIRS = env_int("TRUCO_LADDER_PAIRS", 2)
TRUCO_LADDER_IN_FLIGHT = env_int("TRUCO_LADDER_IN_FLIGHT", 2)
# All ladders together: a new version's first match waits behind at most this many others (set
# it to the workers' total concurrency; the embedded default runs two).
TRUCO_LADDER_IN_FLIGHT_TOTAL = env_int("TRUCO_LADDER_IN_FLIGHT_TOTAL", 2)
TRUCO_LADDER_WINDOW_HOURS = env_int("TRUCO_LADDER_WINDOW_HOURS", 24)
# A version validating for less than this holds the ladder back (its smoke match goes first);
# one validating for longer (its task lost) no longer does.
TRUCO_LADDER_YIELDS_TO_UPLOADS_SECONDS = env_int("TRUCO_LADDER_YIELDS_TO_UPLOADS_SECONDS", 600)
CELERY_BEAT_SCHEDULE = {
    "sweep-stale-matches": {"task": "tournaments.sweep", "schedule": float(TRUCO_SWEEP_SECONDS)},
    # Tables in play whose timer message or robots' advance was lost (tables/services.py sweep).
    "sweep-tables": {"task": "play.sweep", "schedule": float(TRUCO_TABLE_SWEEP_SECONDS)},
    "ladder": {"task": "tournaments.ladder", "schedule": float(TRUCO_LADDER_SECONDS)},
}

# How often a web process asks the workers whether one consumes TRUCO_QUEUE (for the
# `workers` field of the payloads with queued work); 0 turns the check off.
TRUCO_WORKER_CHECK_SECONDS = env_int("TRUCO_WORKER_CHECK_SECONDS", 5)
TRUCO_MATCH_LEASE_SECONDS = env_int("TRUCO_MATCH_LEASE_SECONDS", 120)
# Short matches go several to a task (tournaments/dispatch.py task_batches): about this many
# games a task, and the matches published at once in at least TRUCO_TASK_SPREAD tasks.
TRUCO_TASK_GAMES = env_int("TRUCO_TASK_GAMES", 20)
# The same between built-in bots of TRUCO_INSTANT_BOT_PLUGINS (a game in milliseconds).
TRUCO_TASK_QUICK_GAMES = env_int("TRUCO_TASK_QUICK_GAMES", 100)
TRUCO_TASK_SPREAD = env_int("TRUCO_TASK_SPREAD", 4)
TRUCO_MATCH_MAX_ATTEMPTS = env_int("TRUCO_MATCH_MAX_ATTEMPTS", 5)
# Bot plugins trusted to run inside the worker process; every other plugin runs in a child
# process with a hard deadline per decision and resource limits (submitted_bots/trust.py).
# The most a bot may think per decision, whatever its table allows (submitted_bots/budgets.py).
TRUCO_MAX_BOT_DECISION_SECONDS = env_int("TRUCO_MAX_BOT_DECISION_SECONDS", 10)
# The most tables one player may have in play at once (tables/quick.py).
TRUCO_MAX_TABLES_PER_PLAYER = env_int("TRUCO_MAX_TABLES_PER_PLAYER", 10)
TRUCO_USERS_CREATE_TOURNAMENTS = env_bool("TRUCO_USERS_CREATE_TOURNAMENTS", False)
# Remote bots (engine/remote_policy.py reads these through submitted_bots/apps.py).
TRUCO_REMOTE_BOTS = env_bool("TRUCO_REMOTE_BOTS", False)
TRUCO_REMOTE_BOT_HOSTS = os.environ.get("TRUCO_REMOTE_BOT_HOSTS", "")
TRUCO_REMOTE_BOT_NETWORKS = os.environ.get("TRUCO_REMOTE_BOT_NETWORKS", "")
# The secret from which every bot's random seed is derived (engine/botseed.py): a bot cannot
# turn its seed back into the deal. From SECRET_KEY unless set, so that all workers agree.
TRUCO_BOT_SEED_SECRET = (
    os.environ.get("TRUCO_BOT_SEED_SECRET")
    or hmac.new(SECRET_KEY.encode(), b"truco-bot-seeds", hashlib.sha256).hexdigest()
)
# --- tables where people play (tables/host.py, tables/push.py) ----------------------------
CHANNELS_REDIS_URL = os.environ.get("CHANNELS_REDIS_URL") or os.environ.get("REDIS_URL", "")
# `pubsub` (the default): channels_redis' pub/sub layer, messages delivered as Redis publishes
# them, none kept for a reader not subscribed yet (a command unanswered is sent again, a table
# nobody holds is claimed again: tables/routing.py). `core`: its core layer, lists and sorted
# sets in Redis read by a blocking pop per process, whose queues were most of a slow decision's
# time with a hundred people (docs/operations.md, bench_play).
TRUCO_CHANNEL_LAYER = os.environ.get("TRUCO_CHANNEL_LAYER", "pubsub")
if TRUCO_CHANNEL_LAYER not in ("core", "pubsub"):
    raise ImproperlyConfigured(
        f"TRUCO_CHANNEL_LAYER must be core or pubsub, not {TRUCO_CHANNEL_LAYER!r}"
    )
# The names of this site's channels and groups in Redis. Redis' pub/sub is one for all its
# database numbers: two sites (or two benchmark runs) on one Redis with the same prefix would
# hear each other's table commands. The table hosts' claims channel takes it too (routing.py).
TRUCO_CHANNEL_PREFIX = os.environ.get("TRUCO_CHANNEL_PREFIX", "asgi")
if CHANNELS_REDIS_URL and TRUCO_CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [CHANNELS_REDIS_URL], "prefix": TRUCO_CHANNEL_PREFIX},
        }
    }
elif CHANNELS_REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py's 5 s socket timeout equals the layer's 5 s blocking pop: a quiet
            # channel's read timed out and killed the reader. A longer one keeps it waiting.
            "CONFIG": {
                "hosts": [{"address": CHANNELS_REDIS_URL, "socket_timeout": 30}],
                "prefix": TRUCO_CHANNEL_PREFIX,
                "capacity": 1000,
                "expiry": 30,
            },
        }
    }
else:  # one process: the embedded default's web server, which runs its table host too
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# A running bot match as spectators see it (tournaments/live_feed.py), written by the worker
# that plays it at most every TRUCO_WATCH_SECONDS and read by the watchers' connections: in
# Redis where there is one, else in files under var/ (the embedded default's worker and web
# server are separate processes on one machine). The default cache stays in each process.
TRUCO_WATCH_SECONDS = env_float("TRUCO_WATCH_SECONDS", 0.25)
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "live": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CHANNELS_REDIS_URL}
        if CHANNELS_REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "live"),
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    ),
}
# The standings and bracket that a tournament page's followers ask for every few seconds are
# built once for all of them at most this often (tournaments/api/follow_cache.py); 0: always.
TRUCO_FOLLOW_CACHE_SECONDS = env_float("TRUCO_FOLLOW_CACHE_SECONDS", 2.0)
TRUCO_TABLES = os.environ.get("TRUCO_TABLES", "hosts")
if TRUCO_TABLES not in ("hosts", "inline"):
    raise ImproperlyConfigured(f"TRUCO_TABLES must be hosts or inline, not {TRUCO_TABLES!r}")
TRUCO_TABLE_LEASE_SECONDS = env_int("TRUCO_TABLE_LEASE_SECONDS", 10)
TRUCO_TABLE_IDLE_SECONDS = env_int("TRUCO_TABLE_IDLE_SECONDS", 120)
TRUCO_TABLE_HOST_TABLES = env_int("TRUCO_TABLE_HOST_TABLES", 500)
TRUCO_TABLE_HOST_THREADS = env_int("TRUCO_TABLE_HOST_THREADS", 64)
# A host's database connections: its jobs that read and write the tables (tables/host.py).
TRUCO_TABLE_HOST_DB_THREADS = env_int("TRUCO_TABLE_HOST_DB_THREADS", 8)
TRUCO_OPEN_TABLE_HOURS = env_int("TRUCO_OPEN_TABLE_HOURS", 12)

# Django's debug 404 lists every URL pattern: for the developer, never for the site's visitors.
DEBUG_PAGES = env_bool("DJANGO_DEBUG_PAGES", False)
INTERNAL_IPS = [
    a.strip() for a in os.environ.get("DJANGO_INTERNAL_IPS", "").split(",") if a.strip()
]
ASGI_APPLICATION = "config.asgi.application"
# Trusted bots fast enough to answer a person's action in its own turn (tables/live.py): their
# replies are written with the person's action. Others think after it, outside any lock.
TRUCO_INSTANT_BOT_PLUGINS = frozenset(
    os.environ.get("TRUCO_INSTANT_BOT_PLUGINS", "random heuristic").replace(",", " ").split()
) & frozenset(
    os.environ.get("TRUCO_TRUSTED_BOT_PLUGINS", "random heuristic mcts").replace(",", " ").split()
)
# Bot plugins trusted to run inside the worker process; every other plugin runs in a child
# process with a hard deadline per decision and resource limits (submitted_bots/trust.py).
TRUCO_TRUSTED_BOT_PLUGINS = frozenset(
    os.environ.get("TRUCO_TRUSTED_BOT_PLUGINS", "random heuristic mcts").replace(",", " ").split()
)

# --- bot bundles (docs/bots.md) -------------------------------------------------------------
TRUCO_BUNDLE_MAX_MB = env_int("TRUCO_BUNDLE_MAX_MB", 5)
TRUCO_BUNDLE_MAX_FILES = env_int("TRUCO_BUNDLE_MAX_FILES", 200)
TRUCO_BUNDLE_MAX_UNPACKED_MB = env_int("TRUCO_BUNDLE_MAX_UNPACKED_MB", 20)
# Uploaded zips unpacked for the jail, one folder per SHA-256 (a cache: safe to delete),
# fetched from the bundle storage once per machine and kept to these bounds, least recently
# used first out (submitted_bots/bundles/cache.py).
TRUCO_BUNDLE_CACHE_DIR = Path(os.environ.get("TRUCO_BUNDLE_CACHE_DIR") or VAR_DIR / "bundle-cache")
TRUCO_BUNDLE_CACHE_MB = env_int("TRUCO_BUNDLE_CACHE_MB", 1024)
TRUCO_BUNDLE_CACHE_ENTRIES = env_int("TRUCO_BUNDLE_CACHE_ENTRIES", 200)
# This machine's name in the claims of the matches it plays (`name:pid`; default the system's
# host name). Processes with one name must share one PID namespace: a claim of a dead process
# of this machine is taken over at once, a claim of another machine only after its lease.
TRUCO_MACHINE_NAME = os.environ.get("TRUCO_MACHINE_NAME", "").strip()
TRUCO_VALIDATION_GAMES = env_int("TRUCO_VALIDATION_GAMES", 2)
# A user's uploads wait for their validations: no flood of smoke matches for the workers.
TRUCO_MAX_VALIDATING_PER_USER = env_int("TRUCO_MAX_VALIDATING_PER_USER", 3)
# The smoke match's time per decision: by default (empty) that of the tournaments the version
# may enter (submitted_bots/smoke_match.py), so that a bot cannot tell it from them; a number
# here fixes it (a slow machine, the tests).
TRUCO_VALIDATION_DECISION_SECONDS = (
    float(os.environ["TRUCO_VALIDATION_DECISION_SECONDS"])
    if os.environ.get("TRUCO_VALIDATION_DECISION_SECONDS")
    else None
)
