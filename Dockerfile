# One image for both processes: `factsentry gateway` (default, port 8080) and `factsentry worker`
# (metrics on 9464). Build: docker build -t factsentry:0.1.0 .

FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    PATH=/opt/venv/bin:$PATH

RUN python -m venv /opt/venv

WORKDIR /src
COPY pyproject.toml README.md ./
COPY schemas/ schemas/
COPY scoring/ scoring/
COPY knowledge/ knowledge/
COPY workers/ workers/
COPY gateway/ gateway/
COPY bus/ bus/
COPY evaluation/ evaluation/
COPY factsentry/ factsentry/
COPY vocabulary/ vocabulary/
# '.[otel]' is this directory with its otel extra (traces, off unless OTEL_* variables ask), not an index package.
# hadolint ignore=DL3013
RUN pip install --no-cache-dir '.[otel]' \
    && mkdir -p /opt/factsentry/kb \
    && factsentry kb import knowledge/demo --db /opt/factsentry/kb/demo-kb.sqlite3 --quiet


FROM python:3.11-slim

LABEL org.opencontainers.image.title="factsentry" \
      org.opencontainers.image.description="Streaming fact-checking guardrail for LLM apps: gateway and workers" \
      org.opencontainers.image.licenses="Apache-2.0"

RUN groupadd --system --gid 10001 factsentry \
    && useradd --system --uid 10001 --gid factsentry --home-dir /home/factsentry --create-home \
       --shell /usr/sbin/nologin factsentry

COPY --from=build /opt/venv /opt/venv
# Owned by the runtime user: SQLite writes its WAL files beside the store.
COPY --from=build --chown=10001:10001 /opt/factsentry/kb /opt/factsentry/kb
COPY deploy/models.example.yaml /etc/factsentry/models.yaml
COPY deploy/policies.example.yaml /etc/factsentry/policies.yaml

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    XDG_CACHE_HOME=/tmp/.cache \
    FACTSENTRY_HOST=0.0.0.0 \
    FACTSENTRY_PORT=8080 \
    FACTSENTRY_METRICS_PORT=9464 \
    FACTSENTRY_MODELS_FILE=/etc/factsentry/models.yaml \
    FACTSENTRY_POLICY_FILE=/etc/factsentry/policies.yaml \
    FACTSENTRY_KB_PATH=/opt/factsentry/kb/demo-kb.sqlite3 \
    HEALTHCHECK_URL=http://127.0.0.1:8080/healthz

WORKDIR /home/factsentry
USER 10001:10001
EXPOSE 8080 9464

# The worker overrides HEALTHCHECK_URL with its metrics endpoint (http://127.0.0.1:9464/metrics).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(os.environ['HEALTHCHECK_URL'], timeout=4)"]

ENTRYPOINT ["factsentry"]
CMD ["gateway"]
