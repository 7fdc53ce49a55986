"""A Responses API request as the chat completion the upstream is asked for (gateway/responses.py serves it).

- ``input``: a string is one user message; a list holds message items (``{"role", "content"}``, with or without
  ``"type": "message"``), their content a string or parts (``input_text``, ``input_image`` by URL; an assistant's
  ``output_text`` and ``refusal`` parts as its text). A ``developer`` message is a system message.
- Function calling, as an agent loop sends it back: a ``function_call`` item is the assistant's tool call (items
  in a row are one assistant message, with the text of an assistant message just before them), a
  ``function_call_output`` item is the ``tool`` message of its ``call_id`` (text, or ``input_text`` parts). Tool
  results are evidence for the answer that follows them, as on chat completions (gateway/conversation.py).
- ``tools``: function tools (``{"type": "function", "name", "description", "parameters", "strict"}``) as chat
  tools; ``tool_choice`` (``auto``, ``none``, ``required`` or one function) and ``parallel_tool_calls`` as they are.
- ``instructions``: a system message before them.
- ``max_output_tokens`` → ``max_tokens``; ``text.format`` → ``response_format``; ``reasoning.effort`` →
  ``reasoning_effort``; ``temperature``, ``top_p``, ``user`` as they are; ``stream`` (with the usage chunk asked
  for, so that the streamed response reports its usage).
- ``metadata``: the gateway's own keys (``factsentry``, ``factsentry_name``) are read as on chat completions; the
  rest is repeated on the response and not sent upstream.

What the gateway cannot serve is refused with a 400 naming the parameter, as OpenAI refuses: anything that needs
a stored response (``previous_response_id``, ``conversation``, ``prompt``, ``background``), hosted tools (web or
file search, code interpreter …: they run in OpenAI's service), and other input item types (reasoning, files).
Parameters that only steer OpenAI's own service (``store``, ``include``, ``truncation``, ``service_tier`` …) are
accepted and have no effect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gateway.errors import InvalidRequest
from gateway.request import OUR_METADATA

# Parameters a chat completion has under the same name.
SAME = ("temperature", "top_p", "user", "parallel_tool_calls")
# Accepted and without effect here: they steer OpenAI's own storage, caching and service.
IGNORED = frozenset(
    {
        "store", "include", "truncation", "service_tier", "safety_identifier", "prompt_cache_key",
        "prompt_cache_retention", "max_tool_calls", "stream_options",
    }
)  # fmt: skip
# What the gateway cannot serve, and why.
UNSUPPORTED = {
    "previous_response_id": "the gateway keeps no responses: send the whole conversation in 'input'",
    "conversation": "the gateway keeps no conversations: send the whole conversation in 'input'",
    "prompt": "stored prompt templates are not served: send the prompt's text in 'input'",
    "background": "background responses are not served: the gateway keeps no responses",
    "top_logprobs": "log probabilities are not served on /v1/responses",
}
KNOWN = frozenset(
    {
        "model",
        "input",
        "instructions",
        "stream",
        "metadata",
        "max_output_tokens",
        "text",
        "reasoning",
        "tools",
        "tool_choice",
    }
)
ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
# What the response object repeats of the request, with its default.
ECHOED: dict[str, Any] = {
    "instructions": None,
    "max_output_tokens": None,
    "temperature": None,
    "top_p": None,
    "user": None,
    "tools": [],
    "tool_choice": "auto",
    "parallel_tool_calls": True,
}


@dataclass
class Echo:
    """What a response object repeats of its request: the model asked for, and the fields of ``ECHOED``,
    ``metadata`` (without the gateway's own keys) and ``text``."""

    model: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


def refuse(message: str, param: str, code: str = "invalid_value") -> InvalidRequest:
    return InvalidRequest(message, param=param, code=code)


def to_chat(body: dict[str, Any]) -> tuple[str, list[dict[str, Any]], dict[str, Any], Echo]:
    """The model asked for, the conversation as chat messages, the chat completion body for the upstream, and what
    the response repeats; :class:`InvalidRequest` (a 400 naming the parameter) for what cannot be served."""
    for key, value in body.items():
        if key in UNSUPPORTED and value not in (None, False, []):
            raise refuse(f"'{key}' is not supported by this gateway: {UNSUPPORTED[key]}", key, "unsupported_parameter")
        if key not in KNOWN and key not in IGNORED and key not in SAME and key not in UNSUPPORTED:
            raise refuse(f"Unrecognized request argument supplied: {key}", key, "unknown_parameter")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise refuse("you must provide a model parameter (a non-empty string)", "model", "missing_model")
    messages = instructions(body.get("instructions")) + conversation(body.get("input"))
    chat: dict[str, Any] = {"messages": messages, **{k: body[k] for k in SAME if body.get(k) is not None}}
    chat.update(options(body))
    if body.get("tools"):
        chat["tools"] = tools(body["tools"])
    if body.get("tool_choice") is not None:
        chat["tool_choice"] = tool_choice(body["tool_choice"])
    if body.get("stream"):
        chat["stream"] = True
        chat["stream_options"] = {"include_usage": True}
    metadata = body.get("metadata")
    kept = {k: v for k, v in metadata.items() if k not in OUR_METADATA} if isinstance(metadata, dict) else None
    echoed = {k: default if body.get(k) is None else body[k] for k, default in ECHOED.items()}
    echo = Echo(model, {**echoed, "metadata": kept or {}, "text": body.get("text") or {"format": {"type": "text"}}})
    return model, messages, chat, echo


def options(body: dict[str, Any]) -> dict[str, Any]:
    """``stream``, ``max_output_tokens``, ``text.format`` and ``reasoning.effort`` as chat completion parameters."""
    out: dict[str, Any] = {}
    if "stream" in body and not isinstance(body["stream"], bool):
        raise refuse("'stream' must be a boolean", "stream", "invalid_type")
    limit = body.get("max_output_tokens")
    if limit is not None:
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise refuse("'max_output_tokens' must be a positive integer", "max_output_tokens", "invalid_type")
        out["max_tokens"] = limit
    text = body.get("text")
    if text is not None:
        if not isinstance(text, dict):
            raise refuse("'text' must be an object", "text", "invalid_type")
        fmt = text.get("format")
        if fmt is not None and (
            not isinstance(fmt, dict) or fmt.get("type") not in ("text", "json_object", "json_schema")
        ):
            raise refuse("'text.format.type' must be one of text, json_object, json_schema", "text.format")
        if isinstance(fmt, dict) and fmt["type"] == "json_object":
            out["response_format"] = {"type": "json_object"}
        elif isinstance(fmt, dict) and fmt["type"] == "json_schema":
            schema = {k: fmt[k] for k in ("name", "schema", "strict", "description") if k in fmt}
            out["response_format"] = {"type": "json_schema", "json_schema": schema}
    reasoning = body.get("reasoning")
    if isinstance(reasoning, dict) and isinstance(reasoning.get("effort"), str):
        out["reasoning_effort"] = reasoning["effort"]
    elif reasoning is not None and not isinstance(reasoning, dict):
        raise refuse("'reasoning' must be an object", "reasoning", "invalid_type")
    return out


def instructions(value: object) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, str):
        raise refuse("'instructions' must be a string", "instructions", "invalid_type")
    return [{"role": "system", "content": value}] if value else []


def conversation(value: object) -> list[dict[str, Any]]:
    """``input`` as chat messages."""
    if isinstance(value, str) and value:
        return [{"role": "user", "content": value}]
    if not isinstance(value, list) or not value:
        raise refuse("'input' must be a non-empty string or a non-empty array of input items", "input", "invalid_input")
    messages: list[dict[str, Any]] = []
    for i, item in enumerate(value):
        where = f"input[{i}]"
        kind = item.get("type", "message") if isinstance(item, dict) else None
        if kind == "function_call":
            call = function_call(item, where)
            last = messages[-1] if messages else None
            if last is not None and last["role"] == "assistant":
                last.setdefault("tool_calls", []).append(call)  # one assistant turn: its text and its calls
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            messages.append(function_output(item, where))
        else:
            messages.append(message(item, where))
    return messages


def tools(value: object) -> list[dict[str, Any]]:
    """Function tools as chat completion tools; anything else (hosted tools) refused naming its type."""
    if not isinstance(value, list):
        raise refuse("'tools' must be an array of tool objects", "tools", "invalid_type")
    out = []
    for i, tool in enumerate(value):
        where = f"tools[{i}]"
        kind = tool.get("type") if isinstance(tool, dict) else None
        if kind != "function":
            raise refuse(
                f"'{where}.type' = {kind!r} is not supported by this gateway: only function tools are served "
                "(hosted tools run in OpenAI's service)",
                f"{where}.type",
                "unsupported_value",
            )
        assert isinstance(tool, dict)
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            raise refuse(f"'{where}.name' must be a non-empty string", f"{where}.name", "invalid_value")
        function: dict[str, Any] = {"name": name}
        for key in ("description", "parameters", "strict"):
            if tool.get(key) is not None:
                function[key] = tool[key]
        out.append({"type": "function", "function": function})
    return out


def tool_choice(value: object) -> object:
    """``auto`` / ``none`` / ``required``, or one function (``{"type": "function", "name"}``) as chat names it."""
    if value in ("auto", "none", "required"):
        return value
    if isinstance(value, dict) and value.get("type") == "function" and isinstance(value.get("name"), str):
        return {"type": "function", "function": {"name": value["name"]}}
    raise refuse(
        "'tool_choice' must be 'auto', 'none', 'required' or {'type': 'function', 'name': …}: hosted tools are not "
        "served by this gateway",
        "tool_choice",
        "unsupported_value",
    )


def function_call(item: dict[str, Any], where: str) -> dict[str, Any]:
    """A ``function_call`` item as a chat tool call."""
    for key in ("call_id", "name", "arguments"):
        if not isinstance(item.get(key), str):
            raise refuse(f"'{where}.{key}' must be a string", f"{where}.{key}", "invalid_type")
    return {
        "id": item["call_id"],
        "type": "function",
        "function": {"name": item["name"], "arguments": item["arguments"]},
    }


def function_output(item: dict[str, Any], where: str) -> dict[str, Any]:
    """A ``function_call_output`` item as the chat ``tool`` message of its call (its text parts joined)."""
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        raise refuse(f"'{where}.call_id' must be a non-empty string", f"{where}.call_id", "invalid_type")
    output = item.get("output")
    if isinstance(output, list):
        texts = []
        for k, p in enumerate(output):
            if not isinstance(p, dict) or p.get("type") != "input_text" or not isinstance(p.get("text"), str):
                raise refuse(
                    f"'{where}.output[{k}]' is not supported by this gateway: only text output is served",
                    f"{where}.output[{k}]",
                    "unsupported_value",
                )
            texts.append(p["text"])
        output = "".join(texts)
    if not isinstance(output, str):
        raise refuse(f"'{where}.output' must be a string or an array of input_text parts", f"{where}.output")
    return {"role": "tool", "tool_call_id": call_id, "content": output}


def message(item: object, where: str) -> dict[str, Any]:
    """One input item as a chat message (only message items are served)."""
    if not isinstance(item, dict):
        raise refuse(f"'{where}' must be an input item object", where, "invalid_input")
    kind = item.get("type", "message")
    if kind != "message":
        raise refuse(
            f"'{where}.type' = {kind!r} is not supported by this gateway: only message items are served",
            f"{where}.type",
            "unsupported_value",
        )
    role = item.get("role")
    if role not in ROLES:
        raise refuse(f"'{where}.role' must be one of {', '.join(ROLES)}", f"{where}.role", "invalid_input")
    content = item.get("content")
    if isinstance(content, str):
        return {"role": ROLES[role], "content": content}
    if not isinstance(content, list):
        raise refuse(f"'{where}.content' must be a string or an array of content parts", f"{where}.content")
    parts = [part(p, role, f"{where}.content[{k}]") for k, p in enumerate(content)]
    if role == "assistant":  # a chat assistant message holds text
        return {"role": "assistant", "content": "".join(p["text"] for p in parts)}
    return {"role": ROLES[role], "content": parts}


def part(value: object, role: str, where: str) -> dict[str, Any]:
    """One content part as a chat content part: text (``input_text``, an assistant's ``output_text`` and
    ``refusal``) or an image by URL."""
    kind = value.get("type") if isinstance(value, dict) else None
    if not isinstance(value, dict) or not isinstance(kind, str):
        raise refuse(f"'{where}' must be a content part object with a 'type'", where, "invalid_input")
    texts = {"input_text": "text", "output_text": "text", "refusal": "refusal"}
    if kind in texts and (kind == "input_text" or role == "assistant"):
        text = value.get(texts[kind])
        if not isinstance(text, str):
            raise refuse(f"'{where}.{texts[kind]}' must be a string", f"{where}.{texts[kind]}", "invalid_type")
        return {"type": "text", "text": text}
    if kind == "input_image" and role != "assistant":
        url = value.get("image_url")
        if not isinstance(url, str):
            raise refuse(f"'{where}.image_url' must be a URL: images by file_id are not served", f"{where}.image_url")
        image = {"url": url, **({"detail": value["detail"]} if isinstance(value.get("detail"), str) else {})}
        return {"type": "image_url", "image_url": image}
    raise refuse(
        f"'{where}.type' = {kind!r} is not supported in a {role} message by this gateway",
        f"{where}.type",
        "unsupported_value",
    )
