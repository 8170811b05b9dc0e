; JavaScript only: class fields (TypeScript's grammar calls them public_field_definition).
(field_definition) @field
