"""Upstream models: a lean HTTP path for OpenAI-compatible servers, litellm for everything else.

The model list is litellm Router's YAML format::

    model_list:
      - model_name: llama-local                 # what clients ask for
        litellm_params:
          model: openai/llama-3-8b              # OpenAI-compatible server: the lean path
          api_base: http://127.0.0.1:8000/v1
          api_key: os.environ/LOCAL_LLM_KEY
      - model_name: demo
        litellm_params: {model: openai/gpt-4o-mini, mock_response: "Hello."}   # litellm (mocked)

Models with provider ``openai/`` or ``hosted_vllm/`` and an ``api_base`` are called directly
over HTTP with aiohttp (one pooled session, the body passed through as bytes); litellm's per-call overhead is
several milliseconds, which would dominate the added latency of the proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp
import orjson
import yaml

from gateway.errors import ConfigError, ModelNotFound, UpstreamError

log = logging.getLogger(__name__)

LEAN_PROVIDERS = ("openai/", "hosted_vllm/")
MAX_ROUTES = 1000  # names kept routed (configured ones and wildcard matches)


# The deepest upstream reply the gateway takes: deeper ones are a 502, not a failure to write them out again
# (orjson writes at most 255 levels) or a hazard to every parser downstream.
MAX_REPLY_DEPTH = 64


def json_depth_over(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` (iterative: a hostile body cannot exhaust the stack)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def completion_shape_error(data: dict[str, Any]) -> str | None:
    """Why ``data`` is not a chat completion the gateway can read, or None if it is."""
    if json_depth_over(data, MAX_REPLY_DEPTH):
        return f"it nests deeper than {MAX_REPLY_DEPTH} levels"
    choices = data.get("choices")
    if choices is None:
        return None
    if not isinstance(choices, list) or not all(isinstance(c, dict) for c in choices):
        return "'choices' is not a list of objects"
    for c in choices:
        message = c.get("message", c.get("delta"))
        if message is not None and not isinstance(message, dict):
            return "a choice's 'message' / 'delta' is not an object"
        if isinstance(message, dict) and not isinstance(message.get("content"), str | None):
            return "a choice's content is not a string"
    return None


@dataclass
class Completion:
    """A non-streaming upstream answer: the raw JSON bytes (passed through as-is) and its parse."""

    raw: bytes
    data: dict[str, Any]

    @property
    def text(self) -> str:
        choices = self.data.get("choices") or [{}]
        content = (choices[0].get("message") or {}).get("content")
        return content if isinstance(content, str) else ""

    @property
    def usage(self) -> dict[str, Any]:
        usage = self.data.get("usage")
        return usage if isinstance(usage, dict) else {}


class Upstream(Protocol):
    name: str

    async def complete(self, body: dict[str, Any]) -> Completion: ...

    def stream(self, body: dict[str, Any]) -> AsyncIterator[dict[str, Any]]: ...

    async def aclose(self) -> None: ...


def _error_from_response(status: int, content: bytes) -> UpstreamError:
    message, code, type_ = f"upstream returned HTTP {status}", None, None
    try:
        err = orjson.loads(content).get("error")
        if isinstance(err, dict):
            message = str(err.get("message") or message)
            code = err.get("code")
            type_ = err.get("type")
        elif isinstance(err, str):
            message = err
    except (orjson.JSONDecodeError, AttributeError):
        if content:
            message = f"{message}: {content[:200].decode(errors='replace')}"
    return UpstreamError(message, status=status, code=code, type_=type_)


@dataclass
class HttpUpstream:
    """An OpenAI-compatible server called directly over one pooled aiohttp session."""

    name: str
    model: str
    api_base: str
    api_key: str | None
    timeout_s: float
    _session: aiohttp.ClientSession | None = field(default=None, init=False)

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            headers = {"content-type": "application/json"}
            if self.api_key:
                headers["authorization"] = f"Bearer {self.api_key}"
            self._session = aiohttp.ClientSession(
                headers=headers,
                # Per read, not total: a long stream that keeps sending is never cut off.
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=5.0, sock_read=self.timeout_s),
                connector=aiohttp.TCPConnector(limit=512, keepalive_timeout=30),
                skip_auto_headers=("User-Agent",),
            )
        return self._session

    @property
    def url(self) -> str:
        return self.api_base.rstrip("/") + "/chat/completions"

    async def complete(self, body: dict[str, Any], model: str | None = None) -> Completion:
        payload = orjson.dumps({**body, "model": model or self.model, "stream": False})
        try:
            async with self._client().post(self.url, data=payload) as response:
                raw = await response.read()
                status = response.status
        except TimeoutError as e:
            raise UpstreamError(
                f"upstream {self.api_base} sent nothing for {self.timeout_s:g} s", status=504, code="upstream_timeout"
            ) from e
        except aiohttp.ClientError as e:
            raise UpstreamError(f"upstream {self.api_base} unreachable: {e!r}", status=502) from e
        if status >= 400:
            raise _error_from_response(status, raw)
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as e:
            raise UpstreamError("upstream returned a body that is not JSON", status=502) from e
        if not isinstance(data, dict):
            raise UpstreamError("upstream returned JSON that is not an object", status=502)
        if (why := completion_shape_error(data)) is not None:
            raise UpstreamError(f"upstream returned a completion of the wrong shape: {why}", status=502)
        return Completion(raw, data)

    async def stream(self, body: dict[str, Any], model: str | None = None) -> AsyncIterator[dict[str, Any]]:
        payload = orjson.dumps({**body, "model": model or self.model, "stream": True})
        try:
            async with self._client().post(self.url, data=payload) as response:
                if response.status >= 400:
                    raise _error_from_response(response.status, await response.read())
                async for line in response.content:
                    if not line.startswith(b"data:"):
                        continue
                    data = line[5:].strip()
                    if data == b"[DONE]":
                        return
                    if data:
                        try:
                            chunk = orjson.loads(data)
                        except orjson.JSONDecodeError as e:
                            raise UpstreamError("upstream sent a stream event that is not JSON", status=502) from e
                        if not isinstance(chunk, dict):
                            continue
                        if (why := completion_shape_error(chunk)) is not None:
                            raise UpstreamError(f"upstream sent a stream chunk of the wrong shape: {why}", status=502)
                        yield chunk
        except TimeoutError as e:
            raise UpstreamError(
                f"upstream {self.api_base} sent nothing for {self.timeout_s:g} s", status=504, code="upstream_timeout"
            ) from e
        except aiohttp.ClientError as e:
            raise UpstreamError(f"upstream {self.api_base} failed mid-stream: {e!r}", status=502) from e

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()


# What a client may pass through to litellm: OpenAI's chat parameters only. Anything else
# (api_base, api_key, custom_llm_provider, mock_response, metadata ...) would let a client
# redirect the operator's credentials or forge the answer.
CHAT_PARAMS = frozenset(
    {
        "messages", "temperature", "top_p", "n", "stop", "max_tokens", "max_completion_tokens", "presence_penalty",
        "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "user", "seed", "tools", "tool_choice",
        "parallel_tool_calls", "response_format", "stream_options", "reasoning_effort", "modalities", "audio",
        "prediction", "service_tier", "functions", "function_call",
    }
)  # fmt: skip


def _litellm_error(e: Exception) -> UpstreamError:
    """Keep the upstream's status and message (litellm's exceptions subclass openai's)."""
    import openai

    if isinstance(e, openai.APIStatusError):
        return UpstreamError(str(getattr(e, "message", e)), status=e.status_code, code=getattr(e, "code", None))
    if isinstance(e, openai.APITimeoutError):
        return UpstreamError(f"upstream timed out: {e}", status=504)
    return UpstreamError(f"upstream call failed: {e}", status=int(getattr(e, "status_code", 502) or 502))


@dataclass
class MatchedUpstream:
    """A name a wildcard matched: its own upstream model name over the wildcard's one HTTP session."""

    name: str
    model: str
    base: HttpUpstream

    async def complete(self, body: dict[str, Any]) -> Completion:
        return await self.base.complete(body, self.model)

    def stream(self, body: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        return self.base.stream(body, self.model)

    async def aclose(self) -> None:
        return None  # the session is the wildcard's, closed with the registry


class LazyRouter:
    """litellm's Router for the models that take the litellm path, built on first need.

    Importing litellm and building its Router takes 10–20 s on a busy machine, so the gateway does not wait
    for it before it listens: :meth:`start` builds it in a thread once the gateway serves (lean models are
    served meanwhile), and a request for a litellm model that arrives earlier waits for the same build
    (:meth:`get`) instead of failing. The credential checks litellm does (``validate_environment``) run with
    the build; what they find is logged then and added to ``notes``."""

    def __init__(
        self,
        model_list: list[dict[str, Any]],
        timeout_s: float,
        checks: list[tuple[str, str, Any]] | None = None,
        env: Mapping[str, str] | None = None,
        notes: list[str] | None = None,
    ) -> None:
        self.model_list = model_list
        self.timeout_s = timeout_s
        self.checks = checks or []
        self.env = (
            os.environ if env is None else env
        )  # (model name, provider model, api_base) of entries whose credentials litellm judges
        self.notes = [] if notes is None else notes  # the registry's: what its build finds is added there
        self._router: Any = None
        self._building: asyncio.Future[Any] | None = None

    @property
    def ready(self) -> bool:
        return self._router is not None

    def build(self) -> Any:
        """Import litellm and build the Router (blocking: run it in a thread)."""
        if self._router is None:
            from litellm.router import Router

            # The client retries; a cooled-down deployment would fail every request for that model.
            router = Router(model_list=self.model_list, timeout=self.timeout_s, num_retries=0, disable_cooldowns=True)
            for name, model, api_base in self.checks:
                missing = _missing_credentials(model, {"api_base": api_base}, None, self.env)
                if missing:
                    note = f"model {name}: no {' / '.join(missing)} — its requests will fail until it is set"
                    self.notes.append(note)
                    log.warning("%s", note)
            self._router = router
        return self._router

    def start(self) -> asyncio.Future[Any]:
        """Begin the build in a thread (once); the future resolves to the Router."""
        if self._building is None:
            self._building = asyncio.ensure_future(asyncio.to_thread(self.build))
        return self._building

    async def get(self) -> Any:
        """The Router, waiting for its build (begun here if nothing began it)."""
        if self._router is not None:
            return self._router
        return await asyncio.shield(self.start())

    async def acompletion(self, **kwargs: Any) -> Any:
        return await (await self.get()).acompletion(**kwargs)


class LiteLLMUpstream:
    """Every other provider (and ``mock_response`` models) through one litellm Router (built lazily)."""

    def __init__(self, name: str, router: LazyRouter) -> None:
        self.name = name
        self.router = router

    @staticmethod
    def _params(body: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in body.items() if k in CHAT_PARAMS}

    async def complete(self, body: dict[str, Any]) -> Completion:
        try:
            response = await self.router.acompletion(model=self.name, **self._params(body))
        except Exception as e:
            raise _litellm_error(e) from e
        data = response.model_dump(exclude_none=True)
        data["model"] = self.name
        if (why := completion_shape_error(data)) is not None:
            raise UpstreamError(f"upstream returned a completion of the wrong shape: {why}", status=502)
        return Completion(orjson.dumps(data), data)

    async def stream(self, body: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            chunks = await self.router.acompletion(model=self.name, stream=True, **self._params(body))
            async for chunk in chunks:
                data = chunk.model_dump(exclude_none=True)
                data["model"] = self.name
                if (why := completion_shape_error(data)) is not None:
                    raise UpstreamError(f"upstream sent a stream chunk of the wrong shape: {why}", status=502)
                yield data
        except UpstreamError:
            raise
        except Exception as e:
            raise _litellm_error(e) from e

    async def aclose(self) -> None:
        return None


def _lean_maker(pattern: str, base: HttpUpstream) -> Callable[[str], Upstream]:
    """``local/*`` → ``openai/*``: the part the ``*`` matched is the upstream's model name."""
    prefix, upstream_prefix = pattern.split("*", 1)[0], base.model.split("*", 1)[0]

    def make(asked: str) -> Upstream:
        return MatchedUpstream(asked, upstream_prefix + asked.removeprefix(prefix), base)

    return make


async def _litellm_logged() -> None:
    """Until litellm has run the logging of the completions made so far (its logging worker's queue is
    empty); a litellm without that worker is given a few turns of the event loop instead."""
    try:
        from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER
    except ImportError:
        for _ in range(10):
            await asyncio.sleep(0)
        return
    await GLOBAL_LOGGING_WORKER.flush()


def _litellm_maker(router: LazyRouter) -> Callable[[str], Upstream]:
    def make(asked: str) -> Upstream:
        return LiteLLMUpstream(asked, router)

    return make


def _missing_credentials(
    model: str, params: Mapping[str, Any], api_key: str | None, env: Mapping[str, str]
) -> list[str]:
    """The environment variables a provider needs that neither the entry nor the environment gives."""
    if api_key or (params.get("api_base") and model.startswith(LEAN_PROVIDERS)):
        return []  # a key given, or an OpenAI-compatible server of one's own (which may need none)
    try:
        import litellm

        found = litellm.validate_environment(model=model, api_key=api_key, api_base=params.get("api_base"))
    except Exception:
        return []  # a provider litellm cannot tell about: the first request will say
    return [k for k in found.get("missing_keys") or [] if k not in env]


def _resolve_secret(value: Any, env: Mapping[str, str]) -> str | None:
    if value is None:
        return None
    text = str(value)
    if text.startswith("os.environ/"):
        key = text.removeprefix("os.environ/")
        if key not in env:
            raise ConfigError(f"models file refers to environment variable {key}, which is not set")
        return env[key]
    return text


# Top-level sections of a LiteLLM proxy config.yaml that factsentry reads nothing from, and what it has instead.
IGNORED_SECTIONS = {
    "general_settings": "master_key and the rest: factsentry's API keys are FACTSENTRY_KEYS_FILE",
    "guardrails": "factsentry is the guardrail: policies are FACTSENTRY_POLICY_FILE",
    "litellm_settings": "callbacks, caching and the rest",
    "router_settings": "routing strategy, retries (factsentry leaves retries to the client)",
    "environment_variables": "set them in the gateway's environment",
}


@dataclass
class Wildcard:
    """A ``model_name`` with ``*`` (``openai/*``): any matching name the client asks for is routed."""

    pattern: str
    make: Callable[[str], Upstream]
    base: Upstream | None = None  # what the matched names share (closed with the registry)


class ModelRegistry:
    """Every model clients may ask for, each mapped to its upstream; wildcard names route by pattern."""

    def __init__(
        self,
        upstreams: dict[str, Upstream],
        wildcards: list[Wildcard] | None = None,
        notes: list[str] | None = None,
        router: LazyRouter | None = None,
    ) -> None:
        self.upstreams = upstreams
        self.configured = frozenset(upstreams)  # the names of the file; wildcard matches join upstreams later
        self.wildcards = wildcards or []
        # What the operator should know at startup: sections ignored, credentials missing (one line each).
        self.notes = notes or []
        self.created = int(time.time())
        # litellm's Router for the models that need it (None: every model is lean), built after listening.
        self.router = router
        self._loading: asyncio.Task[str | None] | None = None

    @property
    def litellm_names(self) -> list[str]:
        """The configured names (and patterns) that take the litellm path."""
        names = [n for n, u in self.upstreams.items() if isinstance(u, LiteLLMUpstream)]
        return names + [w.pattern for w in self.wildcards if w.base is None]

    def start_loading(self) -> asyncio.Task[str | None] | None:
        """Build litellm's Router and warm it up in the background (see :class:`LazyRouter`); None when
        every model is lean. Requests for litellm models wait for the build, lean ones never do."""
        if self.router is None:
            return None
        if self._loading is None:
            self._loading = asyncio.create_task(self.warm_up(), name="factsentry-litellm-load")
        return self._loading

    def get(self, model: str) -> Upstream:
        found = self.upstreams.get(model)
        if found is not None:
            return found
        for wildcard in self.wildcards:
            if fnmatch.fnmatchcase(model, wildcard.pattern) and len(model) <= 200:
                upstream = wildcard.make(model)
                if len(self.upstreams) < MAX_ROUTES:  # cheap to make again: no session of its own
                    self.upstreams[model] = upstream
                return upstream
        known = ", ".join([*sorted(self.configured), *(w.pattern for w in self.wildcards)]) or "none configured"
        raise ModelNotFound(
            f"The model `{model}` does not exist on this gateway (known: {known}).",
            code="model_not_found",
            param="model",
        )

    def list(self) -> list[dict[str, Any]]:
        """The configured names, wildcard patterns included (not every name a pattern has matched)."""
        names = sorted({*self.configured, *(w.pattern for w in self.wildcards)})
        return [{"id": name, "object": "model", "created": self.created, "owned_by": "factsentry"} for name in names]

    async def warm_up(self, timeout_s: float = 30.0) -> str | None:
        """Build litellm's Router (in a thread) and have litellm load what it loads on its first completion.

        Its first call builds its response models, and the success logging it starts afterwards imports
        about a second of modules on the event loop, so every request in flight waited with it (the first
        block request took 1.4–1.9 s in ``factsentry bench pipeline``). One ``mock_response`` completion
        through the router — answered by litellm itself, no upstream called — and the tasks it starts
        (waited for up to ``timeout_s``) do it once. The gateway runs this after it listens
        (:meth:`start_loading`); the lean HTTP path needs none of it.

        Returns the model name the warm-up went through, or None when no model takes the litellm path.
        A warm-up that fails is logged and the gateway serves anyway.
        """
        if self.router is None:
            return None
        started = time.perf_counter()
        try:
            router = await self.router.get()
        except Exception as e:
            log.error("litellm could not be loaded (%s): requests for %s will fail", e, ", ".join(self.litellm_names))
            return None
        name = next((n for n, u in self.upstreams.items() if isinstance(u, LiteLLMUpstream)), None)
        if name is None:
            return None
        try:
            messages = [{"role": "user", "content": "warm-up"}]
            await router.acompletion(model=name, messages=messages, mock_response="warm-up")
        except Exception as e:
            log.warning("litellm warm-up through %s failed (%s): its first request will be slower", name, e)
            return None
        try:
            await asyncio.wait_for(_litellm_logged(), timeout_s)
        except TimeoutError:
            log.warning("litellm's logging of the warm-up took over %g s: its first request may be slower", timeout_s)
        log.info("litellm loaded for %s in %.1f s", ", ".join(self.litellm_names), time.perf_counter() - started)
        return name

    async def aclose(self) -> None:
        if self._loading is not None and not self._loading.done():
            self._loading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loading
        for upstream in self.upstreams.values():
            await upstream.aclose()
        for wildcard in self.wildcards:
            if wildcard.base is not None:
                await wildcard.base.aclose()

    @classmethod
    def from_config(cls, config: Mapping[str, Any], env: Mapping[str, str], timeout_s: float = 120.0) -> ModelRegistry:
        entries = config.get("model_list")
        if not isinstance(entries, list) or not entries:
            raise ConfigError("models file needs a non-empty `model_list` (litellm Router format)")
        ignored = sorted(k for k in config if k != "model_list")
        notes = [
            f"models file: model_list used; ignored: {', '.join(ignored)} ("
            + "; ".join(f"{k}: {IGNORED_SECTIONS.get(k, 'not a factsentry setting')}" for k in ignored)
            + ")"
        ] if ignored else []  # fmt: skip
        upstreams: dict[str, Upstream] = {}
        wildcards: list[Wildcard] = []
        via_litellm: list[dict[str, Any]] = []
        checks: list[tuple[str, str, Any]] = []  # judged by litellm when its Router is built (LazyRouter)
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict) or "model_name" not in entry or "litellm_params" not in entry:
                raise ConfigError(f"model_list[{i}] needs `model_name` and `litellm_params`")
            name, params = str(entry["model_name"]), dict(entry["litellm_params"])
            model = str(params.get("model", ""))
            if not model:
                raise ConfigError(f"model_list[{i}] ({name}): litellm_params.model is missing")
            lean = model.startswith(LEAN_PROVIDERS) and params.get("api_base") and "mock_response" not in params
            # The lean path needs the key now (a missing os.environ/ variable stops startup); litellm reads
            # it per request, so a missing one is named at startup and fails only that model's requests.
            given = params.get("api_key")
            api_key = _resolve_secret(given, env) if lean else None
            missing = []
            if not lean and isinstance(given, str) and given.startswith("os.environ/"):
                if given.removeprefix("os.environ/") not in env:
                    missing = [given.removeprefix("os.environ/")]
            elif "mock_response" not in params:
                if not given and not (params.get("api_base") and model.startswith(LEAN_PROVIDERS)):
                    checks.append((name, model, params.get("api_base")))
            if missing:
                notes.append(f"model {name}: no {' / '.join(missing)} — its requests will fail until it is set")
            if lean and "*" in name:
                base = HttpUpstream(name, model.split("/", 1)[1], str(params["api_base"]), api_key, timeout_s)
                wildcards.append(Wildcard(name, _lean_maker(name, base), base))
            elif lean and name not in upstreams:
                upstreams[name] = HttpUpstream(
                    name=name,
                    model=model.split("/", 1)[1],
                    api_base=str(params["api_base"]),
                    api_key=api_key,
                    timeout_s=timeout_s,
                )
            else:
                via_litellm.append(entry)
        router = LazyRouter(via_litellm, timeout_s, checks, env, notes) if via_litellm else None
        if router is not None:
            for entry in via_litellm:
                name = str(entry["model_name"])
                if "*" in name:  # litellm's Router routes wildcard deployments itself
                    wildcards.append(Wildcard(name, _litellm_maker(router)))
                else:
                    upstreams.setdefault(name, LiteLLMUpstream(name, router))
        return cls(upstreams, wildcards, notes, router)

    @classmethod
    def load(cls, path: Path, env: Mapping[str, str], timeout_s: float = 120.0) -> ModelRegistry:
        try:
            config = yaml.safe_load(path.read_text()) or {}
        except OSError as e:
            raise ConfigError(f"cannot read models file {path}: {e.strerror}") from e
        except yaml.YAMLError as e:
            raise ConfigError(f"models file {path} is not valid YAML: {e}") from e
        if not isinstance(config, dict):
            raise ConfigError(f"models file {path} must be a mapping with `model_list`")
        return cls.from_config(config, env, timeout_s)
