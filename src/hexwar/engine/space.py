"""The action space: every token a game can ever use, each with a fixed integer id.

An action is a sequence of string *tokens*: its kind, then its arguments, then the
reserved closing token :data:`DONE` (``attack 1013 r-5ta r-6ta`` is the tokens
``attack``, ``1013``, ``r-5ta``, ``r-6ta``, ``done``; the text form leaves ``done`` out).
A game declares its :class:`ActionSpace` once, from its data (kinds, unit ids, hex
labels, die totals, ...), so its size is known before play: a neural agent's output
layer, an OpenSpiel or PettingZoo adapter, or a "click a unit, then a hex" front end
picks one token at a time from the ids that are legal after the tokens chosen so far
(:meth:`hexwar.engine.state.State.legal_token_ids`).

>>> space = ActionSpace(("end", "move", "roll"), (("unit", ("red", "blue")), ("n", ("1", "2"))))
>>> space.size, space.token(0), space.id("move"), space.id("blue")
(8, 'done', 2, 5)
>>> from hexwar.engine.actions import Action
>>> space.encode(Action.of("move", "red", 2))
(2, 4, 7, 0)
>>> space.decode((2, 4, 7, 0))
Action(kind='move', args=('red', '2'))
>>> "green" in space, len(space.tokens)
(False, 8)
>>> space.id("green")
Traceback (most recent call last):
...
hexwar.base.errors.UnknownToken: token 'green' is not in the action space (8 tokens)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import attrs

from hexwar.base.errors import ActionSyntaxError, HexwarError, UnknownToken
from hexwar.engine.actions import Action

__all__ = ["DONE", "ActionSpace", "tokens_of"]

#: The token that closes every action (its id is always 0).
DONE: Final = "done"


def tokens_of(action: Action) -> tuple[str, ...]:
    """The tokens of ``action`` without the closing :data:`DONE`: ``(kind, *args)``."""
    return (action.kind, *action.args)


def _table(
    kinds: tuple[str, ...], vocabularies: tuple[tuple[str, tuple[str, ...]], ...]
) -> tuple[str, ...]:
    seen: dict[str, None] = {DONE: None}
    for kind in kinds:
        seen.setdefault(kind, None)
    for _, values in vocabularies:
        for value in values:
            seen.setdefault(value, None)
    return tuple(seen)


@attrs.frozen(eq=False)
class ActionSpace:
    """A game's tokens: ``(DONE, *kinds, *each vocabulary's values in order)``, a token
    string listed twice keeping its first id.

    ``vocabularies`` are named groups of argument values (``("unit", ids)``, ``("hex",
    labels)``); the names are for reading (:meth:`vocabulary`), ids do not depend on them.
    No kind or value may be :data:`DONE` or contain whitespace, and kinds must be valid
    action kinds (a letter, then letters, digits, ``_`` or ``-``).
    """

    kinds: tuple[str, ...]
    vocabularies: tuple[tuple[str, tuple[str, ...]], ...] = ()
    tokens: tuple[str, ...] = attrs.field(init=False)
    _ids: Mapping[str, int] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        for kind in self.kinds:
            Action(kind)  # validates the kind's syntax
        for name, values in self.vocabularies:
            if not isinstance(values, tuple):
                raise HexwarError(f"vocabulary {name!r}: values must be a tuple of str")
            try:
                Action("x", values)
            except ActionSyntaxError as exc:
                raise HexwarError(f"vocabulary {name!r}: {exc}") from None
        if DONE in self.kinds or any(DONE in values for _, values in self.vocabularies):
            raise HexwarError(f"{DONE!r} is the reserved closing token, not a kind or a value")
        tokens = _table(self.kinds, self.vocabularies)
        object.__setattr__(self, "tokens", tokens)
        object.__setattr__(self, "_ids", {t: i for i, t in enumerate(tokens)})

    @classmethod
    def of(cls, kinds: Iterable[str], **vocabularies: Iterable[object]) -> ActionSpace:
        """Build a space from any iterables, turning values into their ``str`` form
        (keyword order is vocabulary order).

        >>> ActionSpace.of(["end", "roll"], total=range(1, 7)).size
        9
        """
        return cls(
            tuple(kinds),
            tuple((name, tuple(str(v) for v in values)) for name, values in vocabularies.items()),
        )

    def merged(self, other: ActionSpace) -> ActionSpace:
        """This space's kinds and vocabularies followed by ``other``'s (ids of this
        space's tokens are unchanged)."""
        return ActionSpace((*self.kinds, *other.kinds), (*self.vocabularies, *other.vocabularies))

    @property
    def size(self) -> int:
        """The number of distinct tokens (ids are ``0 .. size - 1``; ``0`` is :data:`DONE`)."""
        return len(self.tokens)

    def id(self, token: str) -> int:
        """The id of ``token`` (raises :class:`UnknownToken`)."""
        found = self._ids.get(token)
        if found is None:
            raise UnknownToken(f"token {token!r} is not in the action space ({self.size} tokens)")
        return found

    def token(self, token_id: int) -> str:
        """The token with id ``token_id`` (raises :class:`UnknownToken`)."""
        if not isinstance(token_id, int) or not 0 <= token_id < len(self.tokens):
            raise UnknownToken(
                f"token id {token_id!r} is not in the action space (0..{self.size - 1})"
            )
        return self.tokens[token_id]

    def ids(self, tokens: Iterable[str]) -> tuple[int, ...]:
        """The ids of ``tokens``, in order (raises :class:`UnknownToken`)."""
        try:
            return tuple(map(self._ids.__getitem__, tokens))
        except KeyError as exc:
            raise UnknownToken(
                f"token {exc.args[0]!r} is not in the action space ({self.size} tokens)"
            ) from None

    def encode(self, action: Action) -> tuple[int, ...]:
        """The ids of the action's kind, its arguments and :data:`DONE`."""
        return (*self.ids(tokens_of(action)), 0)

    def decode(self, ids: Sequence[int]) -> Action:
        """The action whose tokens have ``ids`` (kind, arguments, then :data:`DONE` last)."""
        tokens = [self.token(i) for i in ids]
        if len(tokens) < 2 or tokens[-1] != DONE or DONE in tokens[:-1]:
            raise UnknownToken(f"token ids {tuple(ids)} are not a kind, arguments, then {DONE!r}")
        return Action(tokens[0], tuple(tokens[1:-1]))

    def vocabulary(self, name: str) -> tuple[str, ...]:
        """The values of vocabulary ``name``."""
        for vocab, values in self.vocabularies:
            if vocab == name:
                return values
        raise KeyError(name)

    def __contains__(self, token: object) -> bool:
        return token in self._ids

    def __len__(self) -> int:
        return len(self.tokens)
