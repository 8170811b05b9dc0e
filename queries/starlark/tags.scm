; Tag-level queries for server/graphmind/languages/tags/ (vocabulary: see queries/swift/tags.scm).
; Starlark (Bazel/Buck): functions; calls f(), module.f(), rule(name = ...).

(function_definition name: (identifier) @name) @definition.function

(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call
