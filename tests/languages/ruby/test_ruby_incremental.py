"""Incremental equals fresh for what Ruby's resolver reads across files: a class's superclass,
its mixins (include, prepend, extend), a class reopened in another file, instance variables'
classes, module functions, top-level defs, ``super``, dispatch to overrides, the elements a class
adds to its collections (``items << Cache.new``), YARD's ``@param``/``@return`` types and a test
DSL's ``setup`` blocks (their instance variables), and a parameter nothing describes, which is
what the callers in other files pass (positional, keyword, a constructor's, passed on)."""

from __future__ import annotations

from edit_sequences import edit_sequences
from graph_util import check_incremental
from hypothesis import HealthCheck, given, settings
from profiles import examples

INITIAL = {
    "base.rb": (
        "module Shop\n  module Saving\n    def persist\n      write\n      super\n    end\n  end\n\n"
        "  class Base\n    def save\n      check\n    end\n\n    def check\n      true\n    end\n\n"
        "    def self.build\n      new\n    end\n  end\nend\n\ndef helper(x)\n  x\nend\n"
    ),
    "repo.rb": (
        "module Shop\n  class Repo < Base\n    include Saving\n    extend Finders\n\n    def initialize\n"
        "      @cache = Cache.new\n    end\n\n    def check\n      super\n      @cache.store\n    end\n\n"
        "    def write\n      helper(1)\n    end\n\n    def items\n      @items ||= []\n    end\n\n"
        "    def fill\n      items << Cache.new\n    end\n\n    def take(box, into: nil)\n      box.store\n      into.check\n"
        "    end\n  end\n\n  class Cache\n    def initialize(owner)\n      @owner = owner\n    end\n\n    def store\n"
        "      @owner.write\n    end\n  end\nend\n"
    ),
    "use.rb": (
        "module Shop\n  module Finders\n    def all\n      build\n    end\n  end\n\n  class Repo\n    def purge\n"
        "      persist\n    end\n  end\nend\n\ndef run\n  r = Shop::Repo.new\n  r.save\n  r.purge\n  Shop::Repo.all\n"
        "  item.persist\n  helper 2\n  r.items.first.store\n  r.items.each { |c| c.store }\n  r.take(Shop::Cache.new(r), into: r)\nend\n\n"
        "# @param repo [Shop::Repo]\n# @return [Shop::Cache]\ndef pick(repo)\n  repo.check\nend\n\ndef again\n  pick(1).store\nend\n"
    ),
}
FRAGMENTS = [
    "\n  class Repo < Object\n  end\n", "\n  class Other < Base\n    def check\n      1\n    end\n  end\n",
    "\n    def save\n      check\n    end\n", "\n    def store\n      2\n    end\n", "\n    include Saving\n",
    "\n    prepend Saving\n", "\n    extend Saving\n", "\n    def self.all\n      1\n    end\n",
    "\ndef helper(y)\n  y\nend\n", "\n    @cache = Repo.new\n", "\n  module Saving\n    def write\n    end\n  end\n",
    "\n    def persist\n      1\n    end\n", "\n    module_function\n", "\n    attr_reader :item\n",
    "\n    items << Repo.new\n", "\n    @items = [Cache.new]\n", "# @return [Repo]\n", "# @param repo [Cache]\n",
    "\n    setup do\n      @cache = Repo.new\n    end\n", "\n    should \"x\" do\n      @cache.store\n    end\n",
    "context \"y\" do\n", "items", "[Repo.new]", ".each { |x| x.store }", " < Base", " < Repo", "Cache.new", "Repo.new", "Cache.new(self)", ".take(Cache.new(1))", "into: Repo.new", "(r)", "super", "self.", "check", "persist", "::", "def ", "end",
    "class ", "module ", "(", ")", "\n", "  ", "",
]
FILES = sorted(INITIAL)
OPEN = ("base.rb", "use.rb")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_length=40, max_edits=10))
def test_ruby_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, OPEN, edits)


def test_an_edited_caller_re_resolves_its_callees_file() -> None:
    # use.rb (open: keystrokes) calls Repo#take and Cache.new, defined in repo.rb (on disk): what
    # it passes is box's, into's and @owner's class there; each edit changes one of them
    use = INITIAL["use.rb"]
    at = use.index("Shop::Cache.new(r), into: r")
    check_incremental(INITIAL, OPEN, [("use.rb", at, len("Shop::Cache.new(r)"), "Shop::Repo.new")])
    check_incremental(INITIAL, OPEN, [("use.rb", use.index("into: r)"), len("into: r"), "into: Shop::Cache.new(1)")])
    check_incremental(INITIAL, ("base.rb",), [("use.rb", at + len("Shop::Cache.new("), 1, "Shop::Cache.new(2)")])
