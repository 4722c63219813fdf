toolschema_macros::tool_schema!(pub Args = {"type": "object"}, format_assertions = true);

fn main() {}
