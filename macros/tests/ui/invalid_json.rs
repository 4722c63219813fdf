toolschema_macros::tool_schema!(pub Args = {"properties": {"q": {"type": "string",}}});

fn main() {}
