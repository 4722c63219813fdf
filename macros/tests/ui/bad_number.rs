toolschema_macros::tool_schema!(pub Args = {"properties": {"n": {"maximum": 0x10}}});

fn main() {}
