; go.mod: the module path of the folder, which Go import paths start with.
(module_directive (module_path) @name) @definition.module
