//! Compiles the tool schemas into validators at build time.

fn main() {
    if let Err(e) = toolschema_compiler::Builder::new()
        .schema("read_file_args", "schemas/read_file.json")
        .schema("search_args", "schemas/search.json")
        .schema("create_issue_args", "schemas/create_issue.json")
        .compile()
    {
        panic!("{e}");
    }
}
