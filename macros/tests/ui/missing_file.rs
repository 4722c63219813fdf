toolschema_macros::tool_schema!(pub Args, path = "tests/schemas/missing.json");

fn main() {}
