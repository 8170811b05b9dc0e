; JSX (TSX and JavaScript): a component element calls the component; a prop may pass a callback.
(jsx_opening_element name: (_) @callee) @reference.call
(jsx_self_closing_element name: (_) @callee) @reference.call
(jsx_expression [(identifier) (member_expression)] @reference.value)
