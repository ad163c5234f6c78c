"""The request bodies of the web API: every body is validated here before any code reads it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

#: The largest uploaded warband or scenario file, in characters.
UPLOAD_LIMIT = 256_000
#: The largest request body, in bytes (two uploads and a scenario fit).
BODY_LIMIT = 1_000_000

#: A point in inches: a finite number (true is not one) within 10,000" of the table's corner (no table is larger).
Inches = Annotated[float, Field(ge=-10_000, le=10_000, strict=True)]
Point = tuple[Inches, Inches]

Name = Field(default=None, max_length=80, pattern=r"^[A-Za-z0-9_.\-]+$")


class Strict(BaseModel):
    # a point or a parameter of inf or nan would measure or play nothing sensible: 422 naming the field
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class ActionBody(Strict):
    """An action as in ``Action.to_json``: a kind, the acting model, a target, a point in inches, an option."""

    kind: str = Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_\-]*$")
    model: str | None = Name
    target: str | None = Name
    point: Point | None = None
    option: str | None = Field(default=None, max_length=200)


class ActBody(Strict):
    version: int = Field(ge=0)
    action: ActionBody


class RollBody(Strict):
    version: int = Field(ge=0)
    values: list[int] = Field(min_length=1, max_length=60)


class WhyBody(Strict):
    action: ActionBody


class DocChoice(Strict):
    """A bundled sample by its id (the file's stem), or an uploaded file's content (YAML or JSON text)."""

    sample: str | None = Name
    text: str | None = None


class ValidateBody(Strict):
    ruleset: str = Field(max_length=80)
    kind: Literal["warband", "scenario"]
    doc: DocChoice


class NewGameBody(Strict):
    ruleset: str = Field(max_length=80)
    a: DocChoice
    b: DocChoice
    scenario: DocChoice | None = None
    seats: tuple[str, str] = ("human", "heuristic")
    dice: Literal["digital", "physical"] = "digital"
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    params: dict[str, str | int | float | bool] = Field(default_factory=dict, max_length=50)
    #: Play warbands whose rules the engine does not all play (without those rules); refused otherwise.
    allow_unmodelled: bool = False
    #: Once finished, the game's replay is open to every visitor (else only to the holders of its links).
    public: bool = False


class Spot(Strict):
    """A point in inches, or a model by its id (its centre, and its height for line of sight)."""

    point: Point | None = None
    model: str | None = Name


class MeasureBody(Strict):
    a: Spot
    b: Spot
