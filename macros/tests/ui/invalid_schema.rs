toolschema_macros::tool_schema!(pub Args = {"properties": {"q": {"type": 5}}});

fn main() {
    // One diagnostic: the stub stands in for the item.
    let _ = Args::SCHEMA_JSON;
}
