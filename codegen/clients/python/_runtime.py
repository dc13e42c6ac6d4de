"""The part of the client that is the same for every tool.

Configuration, one HTTP call with its retries and Idempotency-Key, the
errors, the balance, waiting for a figure and citation export. The
methods per tool are generated beside it (_tools.py). Standard library
only.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Literal, Optional, TypedDict

__version__ = "1.0.0"

#: Where the client sends calls when neither ``base_url`` nor
#: RESEARCH_TOOLS_BASE_URL say.
DEFAULT_BASE_URL = "http://localhost:8080"

#: Citation export formats of the paper tools: BibTeX, RIS or CSL-JSON.
CitationFormat = Literal["bibtex", "ris", "csl"]

_CITATION_MEDIA_TYPES = {
    "bibtex": "application/x-bibtex",
    "ris": "application/x-research-info-systems",
    "csl": "application/vnd.citationstyles.csl+json",
}

# Answers worth the same request again: rate limited, briefly
# unavailable, or the same Idempotency-Key still running.
_RETRIED_STATUSES = frozenset({409, 429, 503})


class ResearchToolsError(Exception):
    """Every failure of a call.

    Either an error answer of the API (``code`` and ``status`` as the
    API sends them, e.g. ``invalid_input`` and 400), or one the client
    met itself: ``network_error`` (no answer after the retries),
    ``unexpected_response`` (an answer that is not the API's),
    ``figure_failed``, ``figure_timeout`` (``status`` None).
    ``retry_after`` holds the seconds of Retry-After when the answer had
    one.
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: Optional[int] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after

    def __str__(self) -> str:
        status = "" if self.status is None else f" (HTTP {self.status})"
        return f"{self.code}{status}: {self.message}"


class InvalidInputError(ResearchToolsError):
    """400 ``invalid_input``: the message names each wrong argument."""


class InsufficientCreditsError(ResearchToolsError):
    """402 ``insufficient_credits``: the balance is below the price."""


class RateLimitedError(ResearchToolsError):
    """429 ``rate_limited`` after the retries (see ``retry_after``)."""


_ERROR_CLASSES = {
    "invalid_input": InvalidInputError,
    "insufficient_credits": InsufficientCreditsError,
    "rate_limited": RateLimitedError,
}


class FailedSource(TypedDict):
    source: str
    error: str


class File(TypedDict):
    name: str
    url: str
    mimeType: str


class RecordFields(TypedDict):
    """The fields every record has (spec part 2.3), besides ``data``."""

    #: The source id, a colon, the native id.
    id: str
    type: str
    source: str
    license: str
    attribution: str
    #: When the source answered (UTC, ISO 8601 with milliseconds).
    retrievedAt: str


class OptionalRecordFields(TypedDict, total=False):
    title: str
    url: str


class ResultFields(TypedDict):
    """The fields every result has (spec part 2.2), besides records."""

    #: One sentence describing the result.
    summary: str
    #: Credits charged for this call.
    credits_used: int
    call_id: str


class OptionalResultFields(TypedDict, total=False):
    #: Present only when some sources failed and others answered.
    partial: bool
    failedSources: List[FailedSource]
    files: List[File]


@dataclass(frozen=True)
class Figure:
    """A finished figure: its PNG and the answer that announced it."""

    figure_id: str
    #: The PNG image.
    png: bytes
    png_url: str
    #: The last answer: create_figure's or edit_figure's when the figure
    #: finished within the call, otherwise get_figure's.
    result: Dict[str, Any]


@dataclass(frozen=True)
class _Answer:
    status: int
    headers: Any
    body: bytes


def _retry_after(headers: Any) -> Optional[float]:
    """Retry-After in seconds: a number of seconds or an HTTP date."""
    value = headers.get("Retry-After")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        date = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, date.timestamp() - time.time())


def _backoff(attempt: int) -> float:
    """Seconds to wait after a failure without Retry-After.

    0.5 s, 1 s, 2 s ... up to 8 s, each with jitter so that many clients
    do not come back together.
    """
    return min(0.5 * 2.0**attempt, 8.0) * (0.5 + random.random() / 2)


def _error_of(answer: _Answer) -> ResearchToolsError:
    """The API's ``{"error": {"code", "message"}}`` as an exception."""
    text = answer.body.decode("utf-8", "replace")
    retry_after = _retry_after(answer.headers)
    try:
        error = json.loads(text).get("error")
        code, message = error["code"], error["message"]
    except (ValueError, AttributeError, KeyError, TypeError):
        code, message = None, None
    if not isinstance(code, str) or not isinstance(message, str):
        message = f"HTTP {answer.status}: {text[:200]}"
        return ResearchToolsError(
            "unexpected_response", message, answer.status, retry_after
        )
    error_class = _ERROR_CLASSES.get(code, ResearchToolsError)
    return error_class(code, message, answer.status, retry_after)


class BaseClient:
    """The shared machinery of the generated ``Client`` class.

    Args:
        api_key: The API key (``sm_...``). Default: the
            RESEARCH_TOOLS_API_KEY environment variable.
        base_url: The server. Default: RESEARCH_TOOLS_BASE_URL, else
            http://localhost:8080.
        max_retries: Retries of one call after 429, 503, 409 (the same
            call still running) or a network failure. Default 3.
        max_retry_wait: The most the retries of one call may wait in
            all, in seconds; a longer Retry-After is not waited for.
            Default 60.
        timeout: Seconds one request may wait for the server before it
            counts as a network failure. Default 120.
        sleep: How the client waits between retries and figure polls.
            Default: time.sleep.

    ``credits_remaining`` holds the account's balance after the last
    call (X-Credits-Remaining), None before the first.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        timeout: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        api_key = api_key or os.environ.get("RESEARCH_TOOLS_API_KEY")
        if not api_key:
            raise ValueError(
                "no API key: pass api_key or set RESEARCH_TOOLS_API_KEY"
            )
        self._api_key = api_key
        base_url = base_url or os.environ.get("RESEARCH_TOOLS_BASE_URL")
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.timeout = timeout
        self._sleep = sleep
        self.credits_remaining: Optional[int] = None
        self._user_agent = "research-tools-python/{} (Python {}.{})".format(
            __version__, *sys.version_info[:2]
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"

    def call(self, tool: str, /, **arguments: Any) -> Dict[str, Any]:
        """Calls any tool by name with its arguments."""
        result: Dict[str, Any] = self._call_tool(tool, arguments)
        return result

    def _call_tool(
        self,
        tool: str,
        arguments: Dict[str, Any],
        *,
        idempotency_key: Optional[str] = None,
        citation_format: Optional[str] = None,
    ) -> Any:
        """POSTs the arguments (those not None) to the tool.

        Answers the JSON result, or the citation text when a format is
        asked for.
        """
        body = {name: v for name, v in arguments.items() if v is not None}
        if citation_format is None:
            accept = "application/json"
        elif citation_format in _CITATION_MEDIA_TYPES:
            accept = _CITATION_MEDIA_TYPES[citation_format]
        else:
            raise ValueError(
                f"citation_format: {citation_format!r} is not one of "
                + ", ".join(_CITATION_MEDIA_TYPES)
            )
        request = urllib.request.Request(
            f"{self.base_url}/api/v1/{urllib.parse.quote(tool, safe='')}",
            data=json.dumps(body, ensure_ascii=False).encode("utf-8"),
            method="POST",
            headers={
                "Authorization": f"Bearer {self._api_key}",
                "Content-Type": "application/json",
                "Accept": accept,
                "Idempotency-Key": idempotency_key or str(uuid.uuid4()),
                "User-Agent": self._user_agent,
            },
        )
        answer = self._with_retries(request)
        if answer.status != 200:
            raise _error_of(answer)
        text = answer.body.decode("utf-8")
        if citation_format is not None:
            return text
        try:
            return json.loads(text)
        except ValueError:
            raise ResearchToolsError(
                "unexpected_response",
                f"{tool} answered 200 with a body that is not JSON: "
                + text[:200],
                200,
            ) from None

    def _call_figure_tool(
        self,
        tool: str,
        arguments: Dict[str, Any],
        *,
        idempotency_key: Optional[str],
        wait: bool,
        poll_interval: Optional[float],
        wait_timeout: float,
    ) -> Any:
        result = self._call_tool(
            tool, arguments, idempotency_key=idempotency_key
        )
        if not wait:
            return result
        return self.wait_for_figure(
            result, poll_interval=poll_interval, wait_timeout=wait_timeout
        )

    def wait_for_figure(
        self,
        result: Dict[str, Any],
        *,
        poll_interval: Optional[float] = None,
        wait_timeout: float = 600.0,
    ) -> Figure:
        """Polls get_figure from a figure tool's answer until finished.

        Then downloads the PNG. Waits ``poll_interval`` seconds between
        polls (default: the ``poll_after_s`` the server suggests, about
        30) and gives up with ``figure_timeout`` once the waits would
        pass ``wait_timeout`` seconds; a failed figure raises
        ``figure_failed``.
        """
        waited = 0.0
        while True:
            extra = result.get("extra") or {}
            status = extra.get("status")
            if status not in ("pending", "finished", "failed"):
                raise ResearchToolsError(
                    "unexpected_response",
                    "the answer is not a figure tool's: no extra.status",
                )
            figure_id = str(extra["figure_id"])
            if status == "finished":
                for file in result.get("files", []):
                    if file["mimeType"] == "image/png":
                        return Figure(
                            figure_id=figure_id,
                            png=self.download(file["url"]),
                            png_url=file["url"],
                            result=result,
                        )
                raise ResearchToolsError(
                    "unexpected_response",
                    f"figure {figure_id} is finished but its answer lists "
                    "no PNG file",
                )
            if status == "failed":
                raise ResearchToolsError(
                    "figure_failed",
                    extra.get("message")
                    or f"figure {figure_id} could not be rendered; "
                    "nothing was charged",
                )
            interval = poll_interval
            if interval is None:
                interval = float(extra.get("poll_after_s", 30))
            if waited + interval > wait_timeout:
                raise ResearchToolsError(
                    "figure_timeout",
                    f"figure {figure_id} was still rendering after "
                    f"{waited:g} s of polling; poll get_figure later",
                )
            self._sleep(interval)
            waited += interval
            result = self._call_tool("get_figure", {"figure_id": figure_id})

    def download(self, url: str) -> bytes:
        """The bytes of a file the API links to (a figure's PNG or SVG).

        Figure files need no key, so none is sent.
        """
        request = urllib.request.Request(
            url, method="GET", headers={"User-Agent": self._user_agent}
        )
        answer = self._with_retries(request)
        if answer.status != 200:
            raise _error_of(answer)
        return answer.body

    def _with_retries(self, request: urllib.request.Request) -> _Answer:
        """Sends the request until an answer is not worth retrying.

        Or until the retries or their time run out. Every attempt sends
        the same headers, Idempotency-Key included.
        """
        waited = 0.0
        attempt = 0
        while True:
            answer: Optional[_Answer] = None
            failure: Optional[BaseException] = None
            try:
                answer = self._send(request)
            except (OSError, http.client.HTTPException) as error:
                failure = error
            if answer is not None and answer.status not in _RETRIED_STATUSES:
                return answer
            delay = None if answer is None else _retry_after(answer.headers)
            if delay is None:
                delay = _backoff(attempt)
            out_of_retries = attempt >= self.max_retries
            if out_of_retries or waited + delay > self.max_retry_wait:
                if answer is not None:
                    return answer
                raise ResearchToolsError(
                    "network_error",
                    f"{request.get_method()} {request.full_url}: no answer "
                    f"after {attempt + 1} attempt{'s' if attempt else ''}: "
                    f"{failure}",
                ) from failure
            self._sleep(delay)
            waited += delay
            attempt += 1

    def _send(self, request: urllib.request.Request) -> _Answer:
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as r:
                answer = _Answer(r.status, r.headers, r.read())
        except urllib.error.HTTPError as error:
            with error:
                answer = _Answer(error.code, error.headers, error.read())
        credits = answer.headers.get("X-Credits-Remaining")
        if credits is not None and credits.isdigit():
            self.credits_remaining = int(credits)
        return answer
