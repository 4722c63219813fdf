toolschema_macros::tool_schema!(pub Args, path = "tests/schemas/bad_minimum.json");

fn main() {}
