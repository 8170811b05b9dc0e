"""The language server: a thin face that translates LSP to the engine and back.

``server`` (the session and the factory), ``protocol`` (GraphMind's own methods, typed),
``settings``, ``to_proto`` (engine records -> LSP types), ``positions`` (LSP positions <-> bytes),
``features/`` (one module per feature, thin handlers).
"""
