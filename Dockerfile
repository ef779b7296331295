# The image of every service in docker-compose.yml: web (gunicorn), worker and beat (Celery),
# and the one-shot migrate.
# Bookworm: the jail's user namespace is made with its util-linux (unshare --map-users, 2.38).
FROM python:3.11-slim-bookworm

# The source tree comes first on the path for every process (manage.py, gunicorn, celery), so
# that templates, static files and migrations are read from it.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# bubblewrap builds the jail untrusted bots run in (engine/jail); uidmap (newuidmap, newgidmap)
# maps the subordinate uid each jail of an ordinary runner gets; libseccomp2 compiles the jail's
# system call filter; util-linux (unshare, setpriv, prlimit) is already in the base image.
RUN apt-get update -q \
    && apt-get install -y -q --no-install-recommends bubblewrap uidmap libseccomp2 \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, so that a code change does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir engine variants bots tournaments config \
    && pip install --quiet . \
    && pip uninstall --quiet --yes truco-arena

COPY . .
# Installed (not editable) so that the built-in variants and bots are registered as entry
# points, exactly like third-party plugins.
RUN pip install --quiet --no-deps . \
    && DJANGO_DEBUG=0 DJANGO_SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 truco \
    && echo "truco:1300000:65536" > /etc/subuid \
    && echo "truco:1300000:65536" > /etc/subgid \
    && mkdir -p /app/var/bundles \
    && chown -R truco /app/var

USER truco
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "6", "--threads", "8"]
