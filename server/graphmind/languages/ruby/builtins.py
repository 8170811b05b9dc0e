"""What Ruby gives every object and class: ``Kernel``'s and ``Object``'s methods (a bare call of
one that the workspace does not define is the library's), ``Module``'s and ``Class``'s (called on
a class), and the method names of the core classes (``Array``, ``Hash``, ``String``,
``Enumerable``...): a call of one on an unknown receiver is no evidence for the one workspace
method of that name. Added to the toolkit's shared list, never a copy of it."""

from __future__ import annotations

KERNEL = frozenset({
    "puts", "print", "p", "pp", "require", "require_relative", "load", "raise", "fail", "loop", "lambda", "proc",
    "format", "sprintf", "printf", "gets", "sleep", "rand", "srand", "exit", "exit!", "abort", "at_exit", "catch",
    "throw", "block_given?", "binding", "caller", "caller_locations", "eval", "system", "spawn", "trap", "warn",
    "open", "select", "Integer", "Float", "String", "Array", "Hash", "Rational", "Complex", "autoload",
    "__method__", "__dir__", "iterator?", "local_variables", "global_variables", "readline", "readlines",
    "putc", "test", "fork", "exec", "then", "yield_self", "tap", "freeze", "frozen?", "dup", "clone", "itself",
    "send", "public_send", "__send__", "respond_to?", "method", "methods", "public_method", "singleton_class",
    "instance_variable_get", "instance_variable_set", "instance_variable_defined?", "instance_variables",
    "instance_of?", "is_a?", "kind_of?", "nil?", "object_id", "hash", "inspect", "to_s", "class", "display",
    "extend", "instance_eval", "instance_exec", "define_singleton_method", "singleton_methods", "equal?", "eql?",
    "enum_for", "to_enum", "private", "public", "protected", "module_function", "private_constant",
    "attr_reader", "attr_writer", "attr_accessor", "attr", "include", "prepend", "define_method", "alias_method",
    "private_class_method", "public_class_method", "remove_method", "undef_method", "using", "refine",
    "instance_method", "method_defined?", "const_get", "const_set", "const_defined?", "class_eval", "module_eval",
    "class_exec", "module_exec", "class_variable_get", "class_variable_set", "ancestors", "name", "new",
    "allocate", "superclass", "instance_methods", "public_instance_methods", "private_instance_methods",
    "included_modules", "include?", "const_missing", "constants", "nesting", "private_method_defined?",
    "public_method_defined?", "protected_method_defined?", "attr_internal", "delegate", "super", "block",
    "yield", "__callee__", "instance_variable_names", "callcc",
})

# method names of core classes and modules (Array, Hash, String, Symbol, Integer, Enumerable,
# Comparable, IO, File, Time, Struct) beyond the shared list
COMMON_METHODS = frozenset({
    "all?", "any?", "none?", "one?", "at", "chars", "bytes", "lines", "chomp", "chop", "collect", "compact",
    "concat", "cycle", "delete_if", "detect", "dig", "downcase", "upcase", "capitalize", "swapcase", "drop",
    "drop_while", "each_with_index", "each_with_object", "each_slice", "each_cons", "each_char", "each_line",
    "each_key", "each_value", "each_pair", "empty?", "end_with?", "start_with?", "entries", "fill", "find_all",
    "find_index", "first", "last", "flat_map", "flatten", "gsub", "gsub!", "sub!", "include?", "inject", "key?",
    "has_key?", "value?", "has_value?", "member?", "keep_if", "key", "lazy", "max", "min", "max_by", "min_by",
    "merge", "merge!", "partition", "reject", "reject!", "select!", "map!", "rindex", "rotate", "sample", "scan",
    "shift", "unshift", "shuffle", "slice", "sort_by", "sum", "take", "take_while", "tally", "to_a", "to_h", "to_i",
    "to_f", "to_r", "to_sym", "to_proc", "to_str", "to_ary", "to_hash", "transform_keys", "transform_values",
    "uniq", "zip", "select", "sort!", "squeeze", "strip!", "lstrip", "rstrip", "succ", "times", "upto", "downto",
    "step", "abs", "ceil", "floor", "round", "zero?", "positive?", "negative?", "even?", "odd?", "between?",
    "clamp", "bytesize", "freeze", "inspect", "hash", "eql?", "equal?", "curry", "arity", "parameters",
    "source_location", "group_by", "chunk_while", "slice_when", "each_entry", "filter_map", "minmax",
    "reverse_each", "with_index", "with_object", "readlines", "puts", "print", "printf", "gets", "eof?", "closed?",
    "path", "basename", "dirname", "extname", "exist?", "file?", "directory?", "mkdir", "expand_path", "strftime",
    "to_time", "to_date", "iso8601", "now", "match?", "encoding", "force_encoding", "unpack", "pack", "ljust",
    "rjust", "center", "tr", "prepend", "store", "values_at", "fetch_values", "invert", "empty", "present?",
    "blank?", "presence", "try", "dup", "then", "tap", "name", "to_json", "as_json", "respond_to?", "is_a?",
    "kind_of?", "nil?", "class", "instance_of?", "frozen?", "new", "render", "params", "redirect_to", "save",
    "save!", "update!", "destroy", "create", "create!", "where", "find_by", "order", "limit", "includes", "pluck",
    "exists?", "reload", "valid?", "errors",
})

# attribute-like names that objects of gems answer (option parsers, Rack responses, models, YAML
# documents) as often as the workspace's one definition of that name
ATTRIBUTE_NAMES = frozenset({
    "options", "config", "data", "content", "path", "type", "value", "id", "url", "params", "attributes",
    "status", "body", "headers", "message", "result", "source", "logger", "version", "label", "title",
})

# what an unknown receiver's call of one workspace method is not evidence for (by-name policy)
BY_NAME_COMMON = COMMON_METHODS | ATTRIBUTE_NAMES

