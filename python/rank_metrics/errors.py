"""The one exception type for bad input: arguments, columns, values and files; and the one
way rank_metrics warns.

An argument a message names is a *mention*, written with `mention` (in the macros,
`rank_metrics._mention`): the message reads as the Python API spells the argument ('k must be',
"with rank= or score=", "pass predictions_shape='list'", '(argument truth_user)'), and the error
knows which argument it is and what value it had (`error.argument`, `error.value`,
`error.mentions`), so that the command line can name each one as its flag
(`error.for_command_line`: '--truth-user', '--predictions-shape list') with no reading of the text.

A mention travels inside the message's text as a marker: RECORD SEPARATOR, this process's
token, JSON [name, form, value, words, text], UNIT SEPARATOR. RankMetricsError reads the markers
back; only markers with this process's token are read (text from the data cannot know it), and
one that does not parse stays text. Markers go into messages only, never into SQL: under dbt the
macros write the plain text.
"""

from __future__ import annotations

import json
import numbers
import os
import re
import secrets
import shlex
import sys
import warnings
from typing import Any, Iterable, NamedTuple

_START, _END = "\x1e", "\x1f"
_TOKEN = secrets.token_hex(8)
_MARKER = re.compile(re.escape(_START + "mention:" + _TOKEN) + r"(\[[^" + _END + r"]*\])" + re.escape(_END))

# how a mention reads in a message (the Python API's spelling) and on the command line
FORMS = {
    "name": "the name, as a word of a sentence: 'k must be', 'takes no baseline' (--baseline)",
    "equals": "the name and =, an argument to pass: 'with rank= or score=' (--rank)",
    "value": "name=value, as the value was given: \"predictions_shape='list'\" (--predictions-shape list)",
    "argument": "'(argument truth_user)', after a column name (--truth-user)",
    "word": "the name, read the same on the command line: 'relevance_threshold 2 applies'",
    "yaml_null": "the hint for a column named none, which is YAML's text: '; in a YAML file none is this text: write "
                 "null (relevance: null)' (for relevance: '; for no grade column, pass --no-relevance'; else nothing)",
}

_NO_VALUE = object()


class Mention(NamedTuple):
    """An argument named in a message: its name, how it is written (FORMS), its value (None when
    the message shows none), its value as command-line words (None when a flag does not take it
    as written: a number stays name=value), and the text the message shows."""
    name: str
    form: str
    value: Any
    words: list[str] | None
    text: str

    def for_command_line(self, flags: Iterable[str] | None = None) -> str:
        """The mention as the command line spells it: a flag for an argument in `flags` (all when
        None), the API's text otherwise."""
        if self.form == "yaml_null":
            return "; for no grade column, pass --no-relevance" if self.name == "relevance" else ""
        if self.form == "word" or (flags is not None and self.name not in flags):
            return self.text
        flag = "--" + self.name.replace("_", "-")
        if self.form == "argument":
            return f"({flag})"
        if self.form == "value":
            return self.text if self.words is None else " ".join([flag, *(shlex.quote(word) for word in self.words)])
        return flag


def mention(name: str, value: Any = _NO_VALUE, form: str = "name", text: str | None = None) -> str:
    """An argument named in a message (FORMS), as text to put in it. `value`: the argument's value,
    which the form "value" shows (as repr does, a list as a list) and the others only carry;
    `text`: the API's text when it is not the form's own."""
    if form not in FORMS:
        raise ValueError(f"mention: form must be one of {', '.join(FORMS)}; got {form!r}")
    shown = None if value is _NO_VALUE else value
    if text is None:
        text = {"name": name, "word": name, "equals": f"{name}=", "value": f"{name}={shown!r}",
                "argument": f"(argument {name})",
                "yaml_null": f"; in a YAML file none is this text: write null ({name}: null)"}[form]
    return _marker(Mention(str(name), form, _json_value(shown), _words(shown) if form == "value" else None, str(text)))


def _json_value(value: Any) -> Any:
    """The value as JSON keeps it: text, numbers, booleans, None and lists of them (a numpy
    integer as an int); anything else (a Decimal, a date) as its text."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_json_value(one) for one in value]
    return str(value)


def _words(value: Any) -> list[str] | None:
    """A value as command-line words: text as itself, a list of texts and numbers item by item;
    None for anything else (a number or None stays name=value on the command line)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(one, (str, numbers.Real)) for one in value):
        return [str(one) for one in value]
    return None


def _marker(found: Mention) -> str:
    return f"{_START}mention:{_TOKEN}{json.dumps(list(found))}{_END}"


def _parts(text: str) -> list:
    """The text as its plain pieces (str) and its mentions (Mention), in order. A marker of
    another process, or one that does not parse, stays text."""
    parts, position = [], 0
    for found in _MARKER.finditer(text):
        try:
            name, form, value, words, shown = json.loads(found.group(1))
            if not (isinstance(name, str) and form in FORMS and isinstance(shown, str)
                    and (words is None or (isinstance(words, list) and all(isinstance(word, str) for word in words)))):
                continue
        except (ValueError, TypeError):
            continue
        parts += [text[position:found.start()], Mention(name, form, value, words, shown)]
        position = found.end()
    return [part for part in [*parts, text[position:]] if part != ""]


def plain(text: str) -> str:
    """The text with each mention as the Python API spells it."""
    return "".join(part if isinstance(part, str) else part.text for part in _parts(str(text)))


def _restored(text: str, fragments: Iterable[str]) -> str:
    """Text that came back from SQL, where no marker goes (a data check's problem), with the
    mentions of the macro's `fragments` (texts with markers, whose plain text the SQL wrote) put
    back: each fragment's first occurrence in the plain pieces."""
    parts = [text]
    for fragment in fragments:
        wanted = plain(fragment)
        if wanted == fragment:   # no mention in it
            continue
        for index, part in enumerate(parts):
            if isinstance(part, str) and wanted in part:
                before, _, after = part.partition(wanted)
                parts[index:index + 1] = [before, *_parts(fragment), after]
                break
    return "".join(part if isinstance(part, str) else _marker(part) for part in parts)


class RankMetricsError(ValueError):
    """Bad input to rank_metrics; the message names the argument, column or file at fault.

    str(error) and error.message are the message as the Python API spells it; error.mentions the
    arguments it names (Mention), error.argument and error.value the first one's name and value
    (None when it names none); error.for_command_line() the message with each as its flag."""

    def __init__(self, message: str = ""):
        self._parts = _parts(str(message))
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return "".join(part if isinstance(part, str) else part.text for part in self._parts)

    @property
    def mentions(self) -> list[Mention]:
        return [part for part in self._parts if isinstance(part, Mention)]

    @property
    def argument(self) -> str | None:
        return self.mentions[0].name if self.mentions else None

    @property
    def value(self) -> Any:
        return self.mentions[0].value if self.mentions else None

    @property
    def marked(self) -> str:
        """The message with its mentions kept: for a new error that says more (f"{error.marked} …")."""
        return "".join(part if isinstance(part, str) else _marker(part) for part in self._parts)

    def for_command_line(self, flags: Iterable[str] | None = None) -> str:
        """The message with each mention of an argument in `flags` (every one when None) as the
        command line's flag: '(--truth-user)', '--predictions-shape list', 'takes no --baseline'."""
        flags = None if flags is None else set(flags)
        return "".join(part if isinstance(part, str) else part.for_command_line(flags) for part in self._parts)

    def __reduce__(self):   # pickled with its mentions, which another process's token would not read
        return _unpickled, (type(self), self._parts, self.__dict__)


def _unpickled(cls, parts, state):
    error = cls.__new__(cls)
    error.__dict__.update(state)
    error._parts = [Mention(*part) if isinstance(part, (list, tuple)) else part for part in parts]
    ValueError.__init__(error, error.message)
    return error


class RankMetricsWarning(UserWarning):
    """A result that is right by the definitions but most often means the inputs are not what
    the user meant (every value 0: no list met truth)."""


class CheckFailed(AssertionError):
    """check=True found the SQL and the reference implementation computing different numbers."""


def warn(message: str) -> None:
    """A RankMetricsWarning that points at the user's call, however deep inside the package it
    is found (compare's resampled tests, a report, a context manager's __enter__ in contextlib):
    at the frame that called the outermost frame of this package. A mention in it reads as the
    Python API spells it."""
    frame, level, users_level = sys._getframe(0), 1, 2
    while frame is not None:
        if os.path.dirname(frame.f_code.co_filename) == os.path.dirname(__file__):
            users_level = level + 1
        frame, level = frame.f_back, level + 1
    warnings.warn(f"rank_metrics: {plain(message)}", RankMetricsWarning, stacklevel=users_level)
