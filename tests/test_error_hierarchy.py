"""One error hierarchy (issue 36, item 4): every error legacies raises on purpose derives
from dsl/errors.py's LegaciesError, says by `usage` whether what was asked is wrong, and
cli/common.py's `exit_code` is the one table from an error to the exit code (2 for a
usage error, 1 for what the work found); interpreter/errors.py's `locate` is the one way
an error met while running gets its place."""

from __future__ import annotations

import pytest

from legacies.agents.cluster import ClusterError
from legacies.agents.simulate import SimulationError
from legacies.agents.soak import SoakError
from legacies.agents.trial import TrialError
from legacies.cli.common import exit_code
from legacies.cli.lsp.server import ListenError
from legacies.dsl.diagnostics import DiagnosticError
from legacies.dsl.errors import LegaciesError
from legacies.dsl.syntax_errors import SyntaxErrors
from legacies.interpreter.errors import (BudgetExceeded, ContentError, CorruptSave, GameError, IllegalChoice,
                                         InternalError, Refused, TableError, Where, locate)
from legacies.pipeline.content import ContentError as ContentListError
from legacies.pipeline.explain import ExplainError
from legacies.pipeline.migrate import MigrateUsageError
from legacies.pipeline.new_item import NewItemError
from legacies.pipeline.stack import StackError
from legacies.pipeline.validate import UsageError
from legacies.pipeline.writes import WriteError

USAGE = [TableError("x"), StackError("x"), UsageError("x"), ExplainError("x"), ContentListError("x"),
         MigrateUsageError("x"), ListenError("x"), NewItemError("x"), SimulationError("x"), ClusterError("x"),
         TrialError("x", usage=True), WriteError("/out", "not a folder", usage=True)]
FOUND = [CorruptSave("x"), Refused("x"), IllegalChoice("x"), GameError("x"), InternalError("x"), ContentError("x"),
         BudgetExceeded("x"), DiagnosticError([]), SoakError("x"), TrialError("x"), NewItemError("x", usage=False),
         SimulationError("x", usage=False), WriteError("/out/save.json", "no space left on the disk")]


@pytest.mark.parametrize("err", USAGE + FOUND, ids=lambda e: type(e).__name__)
def test_every_error_derives_from_the_one_root(err: Exception) -> None:
    assert isinstance(err, LegaciesError)


def test_the_families_keep_their_own_bases() -> None:
    assert issubclass(SyntaxErrors, DiagnosticError) and issubclass(WriteError, OSError)
    assert not issubclass(InternalError, GameError) and not issubclass(GameError, InternalError)


@pytest.mark.parametrize("err", USAGE, ids=lambda e: type(e).__name__)
def test_a_usage_error_exits_2(err: Exception) -> None:
    assert exit_code(err) == 2


@pytest.mark.parametrize("err", FOUND + [OSError("x"), ValueError("x")], ids=lambda e: type(e).__name__)
def test_anything_else_exits_1(err: Exception) -> None:
    assert exit_code(err) == 1


HERE = Where("card `storm` (Storm)", "content/x/cards.yaml", 3, 5)


def test_locate_gives_an_internal_error_its_place_and_what_ran_once() -> None:
    err = InternalError("boom")
    assert locate(err, HERE, ("card `storm`",)) is err
    assert err.where == HERE and err.running == ("card `storm`",)
    assert str(err) == "content/x/cards.yaml:3:5: in card `storm` (Storm): boom (running: card `storm`)"
    elsewhere = Where("action `build`", "rules/x/actions.yaml", 9)
    assert locate(err, elsewhere, ("action `build`",)) is err  # the innermost place stands
    assert err.where == HERE and err.running == ("card `storm`",)


def test_locate_lets_a_refusal_go_as_it_is() -> None:
    refused = Refused("P1 cannot pay 3 gold")
    assert locate(refused, HERE) is refused and refused.where is None


def test_locate_makes_any_other_exception_an_internal_error_caused_by_it() -> None:
    cause = ZeroDivisionError("division by zero")
    located = locate(cause, HERE)
    assert isinstance(located, InternalError) and located.__cause__ is cause
    assert str(located) == "content/x/cards.yaml:3:5: in card `storm` (Storm): ZeroDivisionError: division by zero"
