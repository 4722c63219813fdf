toolschema_macros::tool_schema!(pub Args = {
    "properties": {"owner": {"$ref": "#/$defs/login"}}
});

fn main() {}
