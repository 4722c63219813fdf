toolschema_macros::tool_schema!(pub Args = {"type": "array", "items": {"type": "string"}});

fn main() {}
