"""Names .NET gives every C# type: the methods every object inherits from ``System.Object`` and
every enum from ``System.Enum``, and everyday BCL method names."""

from __future__ import annotations

# Method names of the BCL's everyday types (collections, strings, streams, LINQ, tasks): an unknown
# receiver calling one of these is no evidence for the one workspace method that has the name.
# Added to the toolkit's shared list (Add, Get, Close... match it in their capitalised form).
COMMON_METHODS = frozenset(
    {"Any", "All", "AddRange", "AsEnumerable", "Build", "Concat", "ConfigureAwait", "ContainsKey", "Create",
     "Dispose", "DisposeAsync", "ElementAt", "First", "FirstOrDefault", "GetEnumerator", "GetValueOrDefault",
     "Invoke", "Last", "LastOrDefault", "MoveNext", "OrderBy", "OrderByDescending", "Select", "SelectMany",
     "Single", "SingleOrDefault", "Skip", "Take", "ToArray", "ToDictionary", "ToList", "ToLower", "ToUpper",
     "Trim", "TryGetValue", "TryParse", "Where", "WriteLine", "Value", "Validate"}
)
OBJECT_METHODS = frozenset({"ToString", "Equals", "GetHashCode", "GetType", "MemberwiseClone", "ReferenceEquals", "Finalize"})
ENUM_METHODS = frozenset({"HasFlag", "CompareTo", "GetTypeCode", "ToString"})
