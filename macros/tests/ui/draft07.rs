toolschema_macros::tool_schema!(pub Args = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object"
});

fn main() {}
