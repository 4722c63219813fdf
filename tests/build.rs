//! Generates one `#[test]` per case of the JSON-Schema-Test-Suite (draft 2020-12), named after
//! its file, group and description, so a failure names exactly what failed.

use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use toolschema::Options;

fn main() {
    println!("cargo:rerun-if-env-changed=JSON_SCHEMA_TEST_SUITE");
    println!("cargo:rerun-if-changed=expected-failures.txt");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let suite = std::env::var_os("JSON_SCHEMA_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/json-schema-test-suite"));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("suite_cases.rs");
    let tests_dir = suite.join("tests/draft2020-12");
    if !tests_dir.is_dir() {
        let message = format!(
            "the JSON-Schema-Test-Suite was not found at {}; set JSON_SCHEMA_TEST_SUITE to its root",
            suite.display()
        );
        std::fs::write(
            &out,
            format!("#[test]\nfn suite_is_present() {{ panic!({message:?}); }}\n"),
        )
        .unwrap();
        return;
    }
    println!("cargo:rerun-if-changed={}", tests_dir.display());
    let expected = expected_failures(&manifest.join("expected-failures.txt"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let remotes = remotes::read(&suite.join("remotes"));
    let mut code = String::new();
    let mut typed_files = String::new();
    let mut typed_table = String::new();
    let mut listed_seen = BTreeSet::new();
    for (group_kind, dir) in [
        ("required", tests_dir.clone()),
        ("optional", tests_dir.join("optional")),
        ("format", tests_dir.join("optional/format")),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
            let relative = file
                .strip_prefix(&tests_dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let stem = file.file_stem().unwrap().to_string_lossy().to_string();
            let groups: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let module = format!("{}_{}", group_kind, ident(&stem));
            // One generated module per suite file: a struct per group whose schema the front
            // end accepts.
            let mut options = Options::new().format_assertion(group_kind == "format");
            for (uri, doc) in &remotes {
                options = options.registry_document(uri.clone(), doc.clone());
            }
            let mut compiled = Vec::new();
            let mut items = Vec::new();
            let mut typed = Typed::default();
            for (g, group) in groups.as_array().unwrap().iter().enumerate() {
                let name = format!("group_{g}");
                match compile(&name, &group["schema"], &options, false) {
                    Ok(tokens) => {
                        items.push(tokens);
                        compiled.push(true);
                        typed.group(&relative, g, &group["schema"], &options);
                    }
                    Err(_) => compiled.push(false),
                }
            }
            typed.write(
                &out_dir,
                &module,
                &relative,
                (&mut typed_files, &mut typed_table),
            );
            let generated = toolschema_compiler::format_file(quote::quote! { #(#items)* });
            let generated_name = format!("compiled_{module}.rs");
            toolschema_compiler::write_if_changed(&out_dir.join(&generated_name), &generated)
                .unwrap();
            let _ = writeln!(
                code,
                "mod {module} {{\n    use super::*;\n    mod compiled {{\n        include!(concat!(env!(\"OUT_DIR\"), \"/{generated_name}\"));\n    }}",
            );
            let mut used = BTreeSet::new();
            for (g, group) in groups.as_array().unwrap().iter().enumerate() {
                let validator = if compiled[g] {
                    format!("Some(&compiled::Group{g})")
                } else {
                    "None".to_string()
                };
                let gdesc = group["description"].as_str().unwrap_or("");
                for (c, case) in group["tests"].as_array().unwrap().iter().enumerate() {
                    let cdesc = case["description"].as_str().unwrap_or("");
                    let mut name = format!("{}__{}", ident(gdesc), ident(cdesc));
                    if !used.insert(name.clone()) {
                        name = format!("{name}_{g}_{c}");
                        used.insert(name.clone());
                    }
                    let key = format!("{relative} :: {gdesc} :: {cdesc}");
                    let expect = if expected.contains(&key) {
                        listed_seen.insert(key.clone());
                        "Expect::Failure"
                    } else {
                        "Expect::Pass"
                    };
                    let _ = writeln!(
                        code,
                        "    #[test]\n    fn {name}() {{ run_case({relative:?}, {g}, {c}, {expect}, {validator}); }}"
                    );
                }
            }
            code.push_str("}\n");
        }
    }
    for key in expected.difference(&listed_seen) {
        let _ = writeln!(
            code,
            "#[test]\nfn stale_expected_failure_{}() {{ panic!(\"expected-failures.txt lists a case the suite does not have: {}\"); }}",
            ident(key),
            key.replace('"', "\\\"")
        );
    }
    let typed_suite = format!(
        "{typed_files}\n/// Every suite file with typed groups, and their round trips.\n\
         pub static FILES: &[(&str, &[(usize, ::toolschema_conformance::typed::RoundTrip)])] = &[\n{typed_table}];\n"
    );
    toolschema_compiler::write_if_changed(&out_dir.join("typed_suite.rs"), &typed_suite).unwrap();
    mcp_tools(&manifest.join("../../shared/mcp-tools"), &out_dir);
    limits(&manifest.join("limits"), &out_dir);
    boundary_cases(&out_dir);
    content(&manifest.join("content"), &out_dir);
    allocations(&manifest.join("allocations"), &out_dir);
    discriminators(&manifest.join("discriminators"), &out_dir);
    deep(&manifest.join("deep"), &out_dir);
    formats(&out_dir);
    regressions(&manifest.join("regressions"), &out_dir);
    output_suites(&suite, &out_dir);
    let previous = std::fs::read_to_string(&out).unwrap_or_default();
    if previous != code {
        std::fs::write(&out, code).unwrap();
    }
}

/// Compiles every tool schema of the MCP corpus that the front end admits into one module,
/// with a table naming each tool's validator.
fn mcp_tools(corpus: &Path, out_dir: &Path) {
    let mut items = Vec::new();
    let mut types = Vec::new();
    let mut typed_table = String::from(
        "/// Every admitted tool's typed arguments: file, index in its file, round trip.\n\
         pub static TYPED: &[(&str, usize, ::toolschema_conformance::typed::RoundTrip)] = &[\n",
    );
    let mut table = String::from(
        "/// Every admitted tool: file, tool name, index in its file, compiled validator.\n\
         pub static TOOLS: &[(&str, &str, usize, &(dyn toolschema::Validate + Sync))] = &[\n",
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus)
        .map(|dir| dir.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    for file in files {
        println!("cargo:rerun-if-changed={}", file.display());
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let tools: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for (i, tool) in tools.as_array().into_iter().flatten().enumerate() {
            let ident_name = format!("{}_{i}", ident(file.file_stem().unwrap().to_str().unwrap()));
            let Ok(tokens) = compile(&ident_name, &tool["inputSchema"], &Options::new(), false)
            else {
                continue;
            };
            items.push(tokens);
            let camel = camel(&ident_name);
            let tool_name = tool["name"].as_str().unwrap_or("");
            let _ = writeln!(table, "    ({name:?}, {tool_name:?}, {i}, &{camel}),");
            // The types come from the IR the validator was generated from.
            let ir = toolschema::frontend::build(&tool["inputSchema"], &Options::new())
                .expect("the front end accepted it once");
            let type_name = format!("{camel}Args");
            let generated = toolschema_compiler::types::argument_types(
                &quote::quote! {},
                &quote::quote! { pub },
                &type_name,
                &quote::format_ident!("{camel}"),
                &ir,
                &tool["inputSchema"],
            );
            types.push(generated.tokens);
            let _ = writeln!(
                typed_table,
                "    ({name:?}, {i}, {}),",
                round_trip(&type_name)
            );
        }
    }
    table.push_str("];\n");
    typed_table.push_str("];\n");
    let typed =
        toolschema_compiler::format_file(quote::quote! { #(#types)* }) + "\n" + &typed_table;
    toolschema_compiler::write_if_changed(&out_dir.join("typed_mcp.rs"), &typed).unwrap();
    let code = toolschema_compiler::format_file(quote::quote! { #(#items)* }) + "\n" + &table;
    toolschema_compiler::write_if_changed(&out_dir.join("compiled_mcp.rs"), &code).unwrap();
}

/// The validator `name` of `schema` (under the tool-call rules when `tool`), or why the
/// front end rejects it.
fn compile(
    name: &str,
    schema: &Value,
    options: &Options,
    tool: bool,
) -> Result<proc_macro2::TokenStream, toolschema_compiler::CompileError> {
    toolschema_compiler::Builder::new()
        .options(options.clone())
        .tool_schemas(tool)
        .schema_value(name, schema.clone())
        .tokens()
}

/// A closure that parses arguments into `type_name` and serializes them back.
fn round_trip(type_name: &str) -> String {
    format!(
        "|v| {type_name}::parse(v).map(|a| ::toolschema::__types::serde_json::to_value(a).expect(\"typed arguments serialize\"))"
    )
}

/// The argument types of one suite file's compiled groups, each validating with the
/// interpreter's validator of its group (`toolschema_conformance::typed::Interpreted`).
#[derive(Default)]
struct Typed {
    items: Vec<proc_macro2::TokenStream>,
    table: String,
}

impl Typed {
    fn group(&mut self, file: &str, g: usize, schema: &Value, options: &Options) {
        let ir = toolschema::frontend::build(schema, options).expect("the group compiled");
        let validator = quote::format_ident!("Group{g}");
        let type_name = format!("Group{g}Args");
        let generated = toolschema_compiler::types::argument_types(
            &quote::quote! {},
            &quote::quote! { pub },
            &type_name,
            &validator,
            &ir,
            schema,
        );
        let tokens = generated.tokens;
        let json = serde_json::to_string(schema).expect("a schema serializes");
        self.items.push(quote::quote! {
            /// The interpreter's validator of the group, as the unit struct a generated
            /// validator is.
            #[derive(Clone, Copy, Debug, Default)]
            pub struct #validator;

            impl #validator {
                pub const SCHEMA_JSON: &'static str = #json;
            }

            impl ::toolschema::Validate for #validator {
                fn is_valid(&self, instance: &::serde_json::Value) -> bool {
                    ::toolschema_conformance::typed::Interpreted::new(#file, #g).is_valid(instance)
                }

                fn validate(
                    &self,
                    instance: &::serde_json::Value,
                ) -> ::core::result::Result<(), ::toolschema::Error> {
                    ::toolschema_conformance::typed::Interpreted::new(#file, #g).validate(instance)
                }

                fn evaluate(
                    &self,
                    instance: &::serde_json::Value,
                ) -> ::core::result::Result<::toolschema::Evaluation, ::toolschema::Error> {
                    ::toolschema_conformance::typed::Interpreted::new(#file, #g).evaluate(instance)
                }
            }

            #tokens
        });
        let _ = writeln!(self.table, "    ({g}, {}),", round_trip(&type_name));
    }

    fn write(
        self,
        out_dir: &Path,
        module: &str,
        relative: &str,
        (files, table): (&mut String, &mut String),
    ) {
        let items = self.items;
        let code = toolschema_compiler::format_file(quote::quote! { #(#items)* });
        let code = format!(
            "pub mod typed_{module} {{\n{code}\npub static ROUND_TRIPS: &[(usize, ::toolschema_conformance::typed::RoundTrip)] = &[\n{}];\n}}\n",
            self.table
        );
        let name = format!("typed_{module}.rs");
        toolschema_compiler::write_if_changed(&out_dir.join(&name), &code).unwrap();
        let _ = writeln!(files, "include!(concat!(env!(\"OUT_DIR\"), \"/{name}\"));");
        let _ = writeln!(table, "    ({relative:?}, typed_{module}::ROUND_TRIPS),");
    }
}

/// Compiles the schemas of `limits/` with the tight limits `tests/limits.rs` also gives the
/// interpreter, so that both stop at the same place.
fn limits(dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut builder = toolschema_compiler::Builder::new()
        .limits(tight_limits())
        .out_dir(out_dir)
        .file_name("compiled_limits.rs");
    for name in [
        "deep_all_of",
        "recursive_tree",
        "any_of_chain",
        "exponential",
        "open_members",
        "referenced_members",
        "claimed_in_branches",
        "compared_members",
        "all_of_members",
        "many_leaves",
        "named_members",
        "long_names",
    ] {
        builder = builder.schema(name, dir.join(format!("{name}.json")));
    }
    builder.compile().unwrap();
}

/// The schemas `tests/allocations.rs` checks for allocation-free valid paths.
fn allocations(dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    toolschema_compiler::Builder::new()
        .schema("property_names", dir.join("property_names.json"))
        .schema_value("many_required", many_required())
        .out_dir(out_dir)
        .file_name("compiled_allocations.rs")
        .compile()
        .unwrap();
}

/// The discriminated unions `tests/discriminators.rs` checks on both paths.
fn discriminators(dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    toolschema_compiler::Builder::new()
        .schema("actions", dir.join("actions.json"))
        .schema("typed", dir.join("typed.json"))
        .out_dir(out_dir)
        .file_name("compiled_discriminators.rs")
        .compile()
        .unwrap();
    // The typed schema again under each step limit up to what its instances need, so that a
    // path that counted a ruled-out branch would stop at another place than the other.
    let mut code = String::new();
    for steps in 1..=TYPED_STEP_LIMIT {
        let module = toolschema_compiler::Builder::new()
            .schema("typed", dir.join("typed.json"))
            .limits(toolschema::Limits::new().max_evaluation_steps(steps))
            .generate()
            .unwrap();
        writeln!(code, "pub mod steps_{steps} {{\n{module}\n}}").unwrap();
    }
    toolschema_compiler::write_if_changed(&out_dir.join("compiled_typed_steps.rs"), &code).unwrap();
}

/// The recursive schemas `tests/deep.rs` evaluates at the edge of the argument limits: once
/// with the default limits, once with arguments allowed to nest past the evaluation depth.
fn deep(dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    for (file, limits) in [
        ("compiled_deep.rs", toolschema::Limits::new()),
        (
            "compiled_deep_unbounded.rs",
            toolschema::Limits::new().max_argument_depth(DEEP_ARGUMENT_DEPTH),
        ),
    ] {
        let mut builder = toolschema_compiler::Builder::new()
            .limits(limits)
            .out_dir(out_dir)
            .file_name(file);
        for name in DEEP_SCHEMAS {
            builder = builder.schema(*name, dir.join(format!("{name}.json")));
        }
        builder.compile().unwrap();
    }
}

/// The schemas of `regressions/schemas.json`, one validator each, for `tests/regressions.rs`.
fn regressions(dir: &Path, out_dir: &Path) {
    let path = dir.join("schemas.json");
    println!("cargo:rerun-if-changed={}", path.display());
    let schemas: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut builder = toolschema_compiler::Builder::new()
        .out_dir(out_dir)
        .file_name("compiled_regressions.rs");
    for (name, schema) in schemas {
        builder = builder.schema_value(name, schema);
    }
    builder.compile().unwrap();
}

/// `{"format": name}` for every format, compiled with format assertion on, and a lookup by
/// name: `tests/format_grammars.rs` holds both paths to the generated values.
fn formats(out_dir: &Path) {
    let mut builder = toolschema_compiler::Builder::new().format_assertion(true);
    let mut arms = String::new();
    for format in toolschema::format::Format::ALL {
        let name = format!("format_{}", ident(format.name()));
        let type_name: String = name
            .split('_')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect();
        let _ = writeln!(arms, "        {:?} => Some(&{type_name}),", format.name());
        builder = builder.schema_value(name, serde_json::json!({"format": format.name()}));
    }
    let code = format!(
        "{}\n/// The compiled `{{\"format\": name}}`.\npub fn by_name(name: &str) -> Option<&'static dyn ::toolschema::Validate> {{\n    match name {{\n{arms}        _ => None,\n    }}\n}}\n",
        builder.generate().unwrap()
    );
    toolschema_compiler::write_if_changed(&out_dir.join("compiled_formats.rs"), &code).unwrap();
}

/// Keep in step with `tests/deep.rs`.
const DEEP_SCHEMAS: &[&str] = &[
    "ref_tree",
    "dynamic_tree",
    "all_of_chain",
    "unevaluated_recursion",
    "outline",
];

/// The argument depth `compiled_deep_unbounded.rs` allows; keep in step with `tests/deep.rs`.
const DEEP_ARGUMENT_DEPTH: usize = 100_000;

/// An object of 150 properties, every one required: more than one 64-bit word of `seen`.
fn many_required() -> Value {
    let names: Vec<String> = (0..150).map(|i| format!("p{i}")).collect();
    let properties: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| (n.clone(), serde_json::json!({"type": "integer"})))
        .collect();
    serde_json::json!({"properties": properties, "required": names})
}

/// The content-assertion schema, compiled with content assertion on and off.
fn content(dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    toolschema_compiler::Builder::new()
        .schema("content_asserted", dir.join("content_tool.json"))
        .content_assertion(true)
        .out_dir(out_dir)
        .file_name("compiled_content_asserted.rs")
        .compile()
        .unwrap();
    toolschema_compiler::Builder::new()
        .schema("content_annotated", dir.join("content_tool.json"))
        .out_dir(out_dir)
        .file_name("compiled_content_annotated.rs")
        .compile()
        .unwrap();
}

#[path = "src/boundary.rs"]
#[allow(dead_code)]
mod boundary;

/// Subschemas past which a boundary case is left to the interpreter: generating and compiling
/// thousands of functions for one hostile case would dominate the test build.
const BOUNDARY_MAX_NODES: usize = 400;

/// The step limits `tests/discriminators.rs` compiles the typed schema under: 1 to this.
const TYPED_STEP_LIMIT: usize = 12;

/// The boundary table on the compiled path: a generated validator for every case the front
/// end accepts, and for the others the error it gave, so the test can hold both paths to the
/// same outcome.
fn boundary_cases(out_dir: &Path) {
    println!("cargo:rerun-if-changed=src/boundary.rs");
    let mut items = Vec::new();
    let mut arms = String::new();
    let mut outcomes = String::new();
    for (i, case) in boundary::cases().into_iter().enumerate() {
        let name = format!("boundary_case_{i}");
        let outcome = if case.options.has_schema_loader() {
            "Skipped(\"a loader is a run-time facility; build scripts take registry documents\")"
                .to_string()
        } else {
            match toolschema::frontend::build_tool(&case.schema, &case.options) {
                Ok(ir) if ir.nodes.len() > BOUNDARY_MAX_NODES => format!(
                    "Skipped(\"{} subschemas: left to the interpreter to keep the test build small\")",
                    ir.nodes.len()
                ),
                Ok(_) => {
                    let tokens = compile(&name, &case.schema, &case.options, true)
                        .expect("the front end accepted it once");
                    items.push(tokens.to_string());
                    let _ = writeln!(arms, "        {i} => Some(&BoundaryCase{i}),");
                    "Compiled".to_string()
                }
                Err(e) => format!(
                    "Rejected {{ class: {:?}, location: {:?}, message: {:?} }}",
                    e.class().as_str(),
                    e.failures()
                        .first()
                        .map(|f| f.instance_location().to_string())
                        .unwrap_or_default(),
                    e.message()
                ),
            }
        };
        let _ = writeln!(outcomes, "    BuildOutcome::{outcome},");
    }
    let code = format!(
        "{}\n/// The compiled validator of boundary case `i`, if it has one.\npub fn validator(i: usize) -> Option<&'static dyn ::toolschema::Validate> {{\n    match i {{\n{arms}        _ => None,\n    }}\n}}\n\n/// What building each boundary case gave at build time.\npub const OUTCOMES: &[BuildOutcome] = &[\n{outcomes}];\n",
        items.join("\n")
    );
    toolschema_compiler::write_if_changed(&out_dir.join("compiled_boundary.rs"), &code).unwrap();
}

/// Keep in step with `tests/limits.rs`.
fn tight_limits() -> toolschema::Limits {
    toolschema::Limits::new()
        .max_evaluation_depth(12)
        .max_argument_depth(16)
        .max_argument_nodes(200)
        .max_argument_string_length(64)
        .max_evaluation_steps(2_000)
}

#[path = "src/remotes.rs"]
mod remotes;

/// `file :: group :: case` keys of the expected-failure list (the text after `#` is the reason).
fn expected_failures(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" # ").next().unwrap().trim().to_string())
        .collect()
}

/// The name of the struct the builder generates for the schema named `name` (snake case).
fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn ident(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches('_');
    let mut out: String = out.chars().take(60).collect();
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'n');
    }
    out
}

/// Compiles the schema of every case of the suite's annotation tests (those compatible with
/// 2020-12) and of its 2020-12 output tests, with tables naming each case's validator:
/// `None` where the compiler refused the schema.
fn output_suites(suite: &Path, out_dir: &Path) {
    let mut items = Vec::new();
    let mut tables = String::new();
    for (table, dir, list) in [
        ("ANNOTATION_CASES", suite.join("annotations/tests"), "suite"),
        (
            "OUTPUT_CASES",
            suite.join("output-tests/draft2020-12/content"),
            "",
        ),
    ] {
        println!("cargo:rerun-if-changed={}", dir.display());
        let _ = writeln!(
            tables,
            "pub static {table}: &[(&str, usize, Option<&(dyn toolschema::Validate + Sync)>)] = &["
        );
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "json"));
        files.sort();
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            let stem = ident(file.file_stem().unwrap().to_str().unwrap());
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let cases = if list.is_empty() { &doc } else { &doc[list] };
            for (i, case) in cases.as_array().into_iter().flatten().enumerate() {
                if !compatible_with_2020(case["compatibility"].as_str()) {
                    continue;
                }
                let mut options = Options::new();
                for (uri, schema) in case["externalSchemas"].as_object().into_iter().flatten() {
                    options = options.registry_document(uri.clone(), schema.clone());
                }
                let item = format!("{}_{stem}_{i}", ident(table));
                let validator = match compile(&item, &case["schema"], &options, false) {
                    Ok(tokens) => {
                        items.push(tokens);
                        format!("Some(&{})", camel(&item))
                    }
                    Err(_) => "None".to_owned(),
                };
                let _ = writeln!(tables, "    ({name:?}, {i}, {validator}),");
            }
        }
        tables.push_str("];\n");
    }
    let generated = toolschema_compiler::format_file(quote::quote! { #(#items)* });
    toolschema_compiler::write_if_changed(
        &out_dir.join("compiled_output_suites.rs"),
        &format!("{generated}\n{tables}"),
    )
    .unwrap();
}

/// Whether an annotation test case's `compatibility` admits 2020-12: a release number is a
/// minimum, `<=` a maximum and `=` the one release, comma-separated constraints all hold.
fn compatible_with_2020(compatibility: Option<&str>) -> bool {
    let release = |n: &str| -> u32 {
        let n: u32 = n.trim().parse().unwrap_or(0);
        // Drafts 3 to 7 come before the dated releases.
        if n < 2000 { n } else { n * 10 }
    };
    let this = release("2020");
    compatibility.is_none_or(|all| {
        all.split(',').all(|c| {
            let c = c.trim();
            if let Some(max) = c.strip_prefix("<=") {
                this <= release(max)
            } else if let Some(only) = c.strip_prefix('=') {
                this == release(only)
            } else {
                this >= release(c)
            }
        })
    })
}
