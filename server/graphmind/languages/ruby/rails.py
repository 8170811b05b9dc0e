"""Rails' conventions where the code does not name the target: an association names a class by
a symbol (``has_many :line_items`` -> ``LineItem``), a callback a method (``before_action
:load_user``, ``validate :sane``, ``if: :ready?``). The resolver labels such edges ``inferred``
at most: the framework, not the code, makes the call."""

from __future__ import annotations

# association macros -> whether the symbol is plural (singularised to find the class)
ASSOCIATIONS = {"has_many": True, "has_and_belongs_to_many": True, "has_one": False, "belongs_to": False}

# options whose symbol values name methods the framework calls (``validates :x, if: :ready?``, ``rescue_from E, with: :handle``)
CALLBACK_OPTIONS = ("if", "unless", "with")

_PHASES = ("before", "after", "around")
_EVENTS = (
    "action", "filter", "validation", "save", "create", "update", "destroy", "commit", "rollback", "initialize",
    "find", "touch", "create_commit", "update_commit", "destroy_commit", "save_commit", "perform", "enqueue",
    "setup", "teardown", "deliver", "run",
)
_CALLBACKS = frozenset(f"{p}_{e}" for p in _PHASES for e in _EVENTS) | frozenset(
    {"validate", "prepend_before_action", "append_before_action", "prepend_after_action", "helper_method",
     "rescue_from"}
)


# ActiveRecord's class methods that give one record of the model they are called on
# (``Category.create!(...)``: a ``Category``), when the workspace does not define them
RECORD_FINDERS = frozenset({
    "create", "create!", "find", "find_by", "find_by!", "find_or_create_by", "find_or_create_by!",
    "find_or_initialize_by", "first", "first!", "last", "last!", "take", "take!", "sole", "find_sole_by",
})
# the superclass (outside the workspace) that makes a class an ActiveRecord model
RECORD_BASES = frozenset({"ActiveRecord.Base", "ApplicationRecord"})


def is_callback(name: str) -> bool:
    """Does a class-body call ``name :sym`` register method ``sym`` for the framework to call?"""
    return name in _CALLBACKS
