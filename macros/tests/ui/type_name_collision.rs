// The typed arguments `Args` would hold the type `ArgsMode` for `mode`: the validator's name.
toolschema_macros::tool_schema!(
    pub ArgsMode = {
        "type": "object",
        "properties": {"mode": {"enum": ["fast", "safe"]}}
    },
    types = Args
);

fn main() {}
