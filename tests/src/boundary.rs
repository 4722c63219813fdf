//! The tool-call boundary contract as a table of cases: schema, options, arguments, and the
//! expected class and location. The table is data so that any back end can run it: the
//! interpreter ([`run_interpreted`]) today, generated validators through [`check`].
//!
//! ```no_run
//! use toolschema_conformance::boundary;
//! for case in boundary::cases() {
//!     let outcome = boundary::run_interpreted(&case);
//!     boundary::check(&case, &outcome).unwrap_or_else(|why| panic!("{}: {why}", case.name));
//! }
//! ```

use serde_json::{Map, Value, json};
use toolschema::{Error, ErrorClass, ErrorSubject, InputSchema, Limits, Options, Validate};

/// One boundary case.
pub struct Case {
    /// What the case shows.
    pub name: String,
    /// The tool's input schema.
    pub schema: Value,
    /// The options to build it with.
    pub options: Options,
    /// The arguments to check; `None` when the case is about the schema alone.
    pub arguments: Option<Value>,
    /// What must happen.
    pub expected: Expected,
}

/// The outcome a case requires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The schema builds and (if given) the arguments are valid.
    Accepted,
    /// An error of this class about this subject.
    Rejected {
        /// The error's class.
        class: ErrorClass,
        /// Schema or arguments.
        subject: ErrorSubject,
        /// For a schema error, the first failure's location in the schema; for an argument
        /// error, the locations of every failure, in any order.
        locations: Vec<&'static str>,
        /// Text the error message must contain (the reference, the dialect URI).
        mentions: Option<String>,
    },
}

// Hostile cases hold values nested far deeper than `Value`'s recursive drop can take.
impl Drop for Case {
    fn drop(&mut self) {
        dismantle(std::mem::take(&mut self.schema));
        if let Some(arguments) = self.arguments.take() {
            dismantle(arguments);
        }
    }
}

/// Drops a value of any depth without recursion.
pub fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// `depth` arrays inside one another, built without recursion.
pub fn nested_arrays(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// `depth` objects `{"a": {"a": …}}` inside one another.
pub fn nested_objects(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        let mut map = Map::new();
        map.insert("a".into(), value);
        value = Value::Object(map);
    }
    value
}

/// A schema `{"not": {"not": … {}}}` nested `depth` schema objects deep.
pub fn nested_schema(depth: usize) -> Value {
    let mut value = json!({});
    for _ in 1..depth {
        let mut map = Map::new();
        map.insert("not".into(), value);
        value = Value::Object(map);
    }
    value
}

/// `$defs` `a0 → a1 → … → a{length}` by `$ref`, the last one `last`; `wrap` places
/// `{"$ref": "#/$defs/a0"}` in the root.
pub fn ref_chain(length: usize, last: Value, wrap: impl FnOnce(Value) -> Value) -> Value {
    let mut defs = Map::new();
    for i in 0..length {
        defs.insert(
            format!("a{i}"),
            json!({"$ref": format!("#/$defs/a{}", i + 1)}),
        );
    }
    defs.insert(format!("a{length}"), last);
    let mut root = wrap(json!({"$ref": "#/$defs/a0"}));
    root.as_object_mut()
        .expect("the wrapper makes an object")
        .insert("$defs".into(), Value::Object(defs));
    root
}

/// The nesting depth of a JSON value as the schema-depth limit counts it (a scalar root is 1).
pub fn json_depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1)];
    while let Some((value, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    deepest
}

fn accepted(
    name: impl Into<String>,
    schema: Value,
    options: Options,
    arguments: Option<Value>,
) -> Case {
    Case {
        name: name.into(),
        schema,
        options,
        arguments,
        expected: Expected::Accepted,
    }
}

fn schema_error(
    name: impl Into<String>,
    schema: Value,
    options: Options,
    class: ErrorClass,
    location: &'static str,
    mentions: Option<&str>,
) -> Case {
    Case {
        name: name.into(),
        schema,
        options,
        // Arguments are given so that the schema error is seen to come first.
        arguments: Some(json!({})),
        expected: Expected::Rejected {
            class,
            subject: ErrorSubject::Schema,
            locations: vec![location],
            mentions: mentions.map(str::to_string),
        },
    }
}

fn argument_error(
    name: impl Into<String>,
    schema: Value,
    options: Options,
    arguments: Value,
    class: ErrorClass,
    locations: Vec<&'static str>,
) -> Case {
    Case {
        name: name.into(),
        schema,
        options,
        arguments: Some(arguments),
        expected: Expected::Rejected {
            class,
            subject: ErrorSubject::Instance,
            locations,
            mentions: None,
        },
    }
}

/// The case with a different expectation (for errors whose location is not the point).
fn rejected_as(mut case: Case, expected: Expected) -> Case {
    case.expected = expected;
    case
}

fn limits(f: impl FnOnce(Limits) -> Limits) -> Options {
    Options::new().limits(f(Limits::new()))
}

const EXAMPLE: &str = "https://example.test/";

/// A loader that serves a few fixed documents under `https://example.test/`.
pub fn example_loader() -> Options {
    Options::new().schema_loader(|uri: &str| match uri.strip_prefix(EXAMPLE) {
        Some("string.json") => Ok(json!({"type": "string"})),
        Some("invalid.json") => Ok(json!({"type": 5})),
        Some("draft7.json") => {
            Ok(json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}))
        }
        _ => Err(format!("no document for {uri}").into()),
    })
}

/// A meta-schema that turns on a vocabulary nobody implements.
fn custom_vocabulary_meta() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/meta/custom",
        "$vocabulary": {
            "https://json-schema.org/draft/2020-12/vocab/core": true,
            "https://example.test/vocab/custom": true,
        },
        "$dynamicAnchor": "meta",
    })
}

/// An applicator around a reference: its keyword, how it wraps, the arguments and where the
/// limit is met.
type Wrapped = (&'static str, fn(Value) -> Value, Value, &'static str);

/// Every boundary case.
pub fn cases() -> Vec<Case> {
    use ErrorClass::{ExecutionFailure as Exec, UnsupportedCapability as Unsupported, Validation};
    let none = Options::new;
    let mut cases = Vec::new();

    // Dialect: exactly 2020-12.
    cases.push(accepted(
        "dialect omitted",
        json!({"type": "object"}),
        none(),
        Some(json!({})),
    ));
    for uri in [
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    ] {
        cases.push(accepted(
            format!("dialect {uri}"),
            json!({"$schema": uri}),
            none(),
            None,
        ));
    }
    for uri in [
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-04/schema#",
        "http://json-schema.org/draft-03/schema#",
        "https://example.test/no-such-dialect",
    ] {
        cases.push(schema_error(
            format!("dialect {uri}"),
            json!({"$schema": uri, "type": "object"}),
            none(),
            Unsupported,
            "/$schema",
            Some(uri),
        ));
    }
    cases.push(schema_error(
        "draft-07 wins over a bad root type",
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": ["object", "null"]}),
        none(),
        Unsupported,
        "/$schema",
        None,
    ));
    cases.push(schema_error(
        "meta-schema requiring an unimplemented vocabulary",
        json!({"$schema": "https://example.test/meta/custom"}),
        Options::new()
            .registry_document("https://example.test/meta/custom", custom_vocabulary_meta()),
        Unsupported,
        "/$schema",
        Some("https://example.test/vocab/custom"),
    ));
    cases.push(schema_error(
        "embedded resource in draft-07",
        json!({"$defs": {"x": {"$id": "https://example.test/x", "$schema": "http://json-schema.org/draft-07/schema#"}}}),
        none(),
        Unsupported,
        "/$defs/x/$schema",
        Some("draft-07"),
    ));

    cases.push(schema_error(
        "draft-07 subschema outside a resource root",
        json!({"properties": {"x": {"$schema": "http://json-schema.org/draft-07/schema#"}}}),
        none(),
        Unsupported,
        "/properties/x/$schema",
        None,
    ));

    // Object root.
    for root in [
        json!(true),
        json!(false),
        json!(null),
        json!(1),
        json!("object"),
        json!([]),
    ] {
        cases.push(schema_error(
            format!("root {root}"),
            root,
            none(),
            Validation,
            "",
            None,
        ));
    }
    cases.push(accepted(
        "root type object",
        json!({"type": "object"}),
        none(),
        Some(json!({"x": 1})),
    ));
    cases.push(accepted(
        "root type [object]",
        json!({"type": ["object"]}),
        none(),
        Some(json!({})),
    ));
    for types in [
        json!(["object", "null"]),
        json!("string"),
        json!(["string"]),
        json!([]),
    ] {
        cases.push(schema_error(
            format!("root type {types}"),
            json!({"type": types}),
            none(),
            Validation,
            "/type",
            None,
        ));
    }
    cases.push(schema_error(
        "root type not a type",
        json!({"type": 5}),
        none(),
        Validation,
        "/type",
        None,
    ));
    for arguments in [json!(null), json!([]), json!("{}"), json!(1), json!(true)] {
        cases.push(argument_error(
            format!("arguments {arguments} without root type"),
            json!({"properties": {"a": {}}}),
            none(),
            arguments,
            Validation,
            vec![""],
        ));
    }
    cases.push(argument_error(
        "nested booleans",
        json!({"properties": {"a": true, "b": false}}),
        none(),
        json!({"a": 1, "b": 2}),
        Validation,
        vec!["/b"],
    ));
    cases.push(argument_error(
        "every failure reported",
        json!({"properties": {"a": {"type": "string"}, "b": {"minimum": 0}}, "required": ["c"]}),
        none(),
        json!({"a": 1, "b": -1}),
        Validation,
        vec!["", "/a", "/b"],
    ));
    cases.push(argument_error(
        "defaults are not applied",
        json!({"properties": {"a": {"type": "integer", "default": 1}}, "required": ["a"]}),
        none(),
        json!({}),
        Validation,
        vec![""],
    ));
    cases.push(argument_error(
        "strings are not coerced",
        json!({"properties": {"n": {"type": "integer"}}}),
        none(),
        json!({"n": "1"}),
        Validation,
        vec!["/n"],
    ));

    // References: no implicit fetching.
    cases.push(schema_error(
        "missing pointer",
        json!({"properties": {"a": {"$ref": "#/$defs/missing"}}}),
        none(),
        Validation,
        "/properties/a/$ref",
        Some("#/$defs/missing"),
    ));
    cases.push(schema_error(
        "missing anchor",
        json!({"properties": {"a": {"$ref": "#nowhere"}}}),
        none(),
        Validation,
        "/properties/a/$ref",
        Some("#nowhere"),
    ));
    cases.push(schema_error(
        "unknown document, no loader",
        json!({"properties": {"a": {"$ref": "https://example.test/string.json"}}}),
        none(),
        Validation,
        "/properties/a/$ref",
        Some("https://example.test/string.json"),
    ));
    cases.push(schema_error(
        "unknown document, loader fails",
        json!({"properties": {"a": {"$ref": "missing.json"}}, "$id": "https://example.test/tool.json"}),
        example_loader(),
        Exec,
        "/properties/a/$ref",
        Some("missing.json"),
    ));
    cases.push(schema_error(
        "loader returns an invalid schema",
        json!({"properties": {"a": {"$ref": "https://example.test/invalid.json"}}}),
        example_loader(),
        Validation,
        "/type",
        Some("https://example.test/invalid.json"),
    ));
    cases.push(schema_error(
        "loader returns draft-07",
        json!({"properties": {"a": {"$ref": "https://example.test/draft7.json"}}}),
        example_loader(),
        Unsupported,
        "/$schema",
        Some("https://example.test/draft7.json"),
    ));
    cases.push(argument_error(
        "loaded document is used",
        json!({"properties": {"a": {"$ref": "https://example.test/string.json"}}}),
        example_loader(),
        json!({"a": 1}),
        Validation,
        vec!["/a"],
    ));
    cases.push(accepted(
        "registry document is used",
        json!({"properties": {"a": {"$ref": "https://example.test/string.json"}}}),
        Options::new().registry_document(
            "https://example.test/string.json",
            json!({"type": "string"}),
        ),
        Some(json!({"a": "x"})),
    ));

    cases.push(schema_error(
        "dangling reference in unused $defs",
        json!({"$defs": {"unused": {"$ref": "#/$defs/missing"}}}),
        none(),
        Validation,
        "/$defs/unused/$ref",
        Some("#/$defs/missing"),
    ));
    cases.push(schema_error(
        "failed load from unused $defs",
        json!({"$defs": {"unused": {"$ref": "https://example.test/missing.json"}}}),
        example_loader(),
        Exec,
        "/$defs/unused/$ref",
        Some("https://example.test/missing.json"),
    ));

    // Patterns.
    cases.push(schema_error(
        "invalid regex",
        json!({"properties": {"a": {"pattern": "("}}}),
        none(),
        Validation,
        "/properties/a/pattern",
        None,
    ));
    cases.push(schema_error(
        "unsupported regex construct",
        json!({"properties": {"a": {"pattern": "^(?!admin)"}}}),
        none(),
        Unsupported,
        "/properties/a/pattern",
        None,
    ));

    cases.push(schema_error(
        "invalid regex in unused $defs",
        json!({"$defs": {"unused": {"patternProperties": {"[": {}}}}}),
        none(),
        Validation,
        "/$defs/unused/patternProperties/[",
        None,
    ));

    // Each limit at its edge: set to what the input needs, it passes; one less, it fails.
    let schema = json!({"type": "object", "properties": {"q": {"type": "string", "description": "a \"quoted\"\n line"}}, "x-n": [1.5, -3, true, null]});
    let size = serde_json::to_string(&schema).unwrap().len();
    cases.push(accepted(
        "max_schema_size at the edge",
        schema.clone(),
        limits(|l| l.max_schema_size(size)),
        None,
    ));
    cases.push(schema_error(
        "max_schema_size past the edge",
        schema,
        limits(|l| l.max_schema_size(size - 1)),
        Exec,
        "",
        None,
    ));

    let schema = json!({"properties": {"a": {"properties": {"b": {}}}}});
    let depth = json_depth(&schema);
    cases.push(accepted(
        "max_schema_depth at the edge",
        schema.clone(),
        limits(|l| l.max_schema_depth(depth)),
        None,
    ));
    cases.push(schema_error(
        "max_schema_depth past the edge",
        schema,
        limits(|l| l.max_schema_depth(depth - 1)),
        Exec,
        "",
        None,
    ));

    let schema = json!({"properties": {"a": {}, "b": {}}});
    cases.push(accepted(
        "max_schema_nodes at the edge",
        schema.clone(),
        limits(|l| l.max_schema_nodes(3)),
        None,
    ));
    cases.push(rejected_as(
        schema_error(
            "max_schema_nodes past the edge",
            schema,
            limits(|l| l.max_schema_nodes(2)),
            Exec,
            "",
            None,
        ),
        Expected::Rejected {
            class: Exec,
            subject: ErrorSubject::Schema,
            locations: vec![],
            mentions: Some("limit of 2 subschemas".into()),
        },
    ));

    let schema = json!({"$defs": {"x": {}}, "properties": {"a": {"$ref": "#/$defs/x"}, "b": {"$ref": "#/$defs/x"}}});
    cases.push(accepted(
        "max_references at the edge",
        schema.clone(),
        limits(|l| l.max_references(2)),
        None,
    ));
    cases.push(rejected_as(
        schema_error(
            "max_references past the edge",
            schema,
            limits(|l| l.max_references(1)),
            Exec,
            "",
            None,
        ),
        Expected::Rejected {
            class: Exec,
            subject: ErrorSubject::Schema,
            locations: vec![],
            mentions: Some("limit of 1 references".into()),
        },
    ));

    // Pointers "/properties/a" and "/properties/b".
    let schema = json!({"properties": {"a": {}, "b": {}}});
    cases.push(accepted(
        "max_schema_pointer_bytes at the edge",
        schema.clone(),
        limits(|l| l.max_schema_pointer_bytes(26)),
        None,
    ));
    cases.push(schema_error(
        "max_schema_pointer_bytes past the edge",
        schema,
        limits(|l| l.max_schema_pointer_bytes(25)),
        Exec,
        "",
        None,
    ));

    let pattern = "^[a-z]+$";
    let schema = json!({"properties": {"a": {"pattern": pattern}}});
    cases.push(accepted(
        "max_regex_size at the edge",
        schema.clone(),
        limits(|l| l.max_regex_size(pattern.len())),
        None,
    ));
    cases.push(schema_error(
        "max_regex_size past the edge",
        schema,
        limits(|l| l.max_regex_size(pattern.len() - 1)),
        Exec,
        "/properties/a/pattern",
        None,
    ));

    let arguments = json!({"a": {"b": [1]}});
    cases.push(accepted(
        "max_argument_depth at the edge",
        json!({}),
        limits(|l| l.max_argument_depth(3)),
        Some(arguments.clone()),
    ));
    cases.push(argument_error(
        "max_argument_depth past the edge",
        json!({}),
        limits(|l| l.max_argument_depth(2)),
        arguments,
        Exec,
        vec!["/a/b"],
    ));

    let arguments = json!({"a": 1, "b": [2, 3]});
    cases.push(accepted(
        "max_argument_nodes at the edge",
        json!({}),
        limits(|l| l.max_argument_nodes(5)),
        Some(arguments.clone()),
    ));
    cases.push(argument_error(
        "max_argument_nodes past the edge",
        json!({}),
        limits(|l| l.max_argument_nodes(4)),
        arguments,
        Exec,
        vec!["/b/1"],
    ));

    let arguments = json!({"q": ["abcd"]});
    cases.push(accepted(
        "max_argument_string_length at the edge",
        json!({}),
        limits(|l| l.max_argument_string_length(4)),
        Some(arguments.clone()),
    ));
    cases.push(argument_error(
        "max_argument_string_length past the edge",
        json!({}),
        limits(|l| l.max_argument_string_length(3)),
        arguments,
        Exec,
        vec!["/q/0"],
    ));
    let arguments = json!({"abcde": 1});
    cases.push(accepted(
        "max_argument_string_length counts names, at the edge",
        json!({}),
        limits(|l| l.max_argument_string_length(5)),
        Some(arguments.clone()),
    ));
    cases.push(argument_error(
        "max_argument_string_length counts names, past the edge",
        json!({}),
        limits(|l| l.max_argument_string_length(4)),
        arguments,
        Exec,
        vec!["/abcde"],
    ));

    // A chain of 41 schema objects evaluated inside one another (a reference chain, so that
    // the schema's own check against the meta-schema needs less); the last applies no
    // subschema, so it takes no level.
    let schema = ref_chain(40, json!({"type": "object"}), |r| r);
    cases.push(accepted(
        "max_evaluation_depth at the edge",
        schema.clone(),
        limits(|l| l.max_evaluation_depth(41)),
        Some(json!({})),
    ));
    cases.push(argument_error(
        "max_evaluation_depth past the edge",
        schema,
        limits(|l| l.max_evaluation_depth(40)),
        json!({}),
        Exec,
        vec![""],
    ));

    // With the default limits every schema within the schema depth passes its meta-schema
    // check (63 levels of `properties` are 127 levels of JSON); with the schema depth raised,
    // the default evaluation depth lets 203 levels through the check and stops the next one
    // (see docs/limits.md).
    let nested_properties = |levels: usize| {
        let mut schema = json!({"type": "string"});
        for _ in 0..levels {
            schema = json!({"properties": {"a": schema}});
        }
        schema
    };
    cases.push(accepted(
        "63 levels of properties",
        nested_properties(63),
        none(),
        Some(json!({"a": {"a": {}}})),
    ));
    cases.push(accepted(
        "203 levels of properties",
        nested_properties(203),
        limits(|l| l.max_schema_depth(1000)),
        Some(json!({"a": {"a": {}}})),
    ));
    cases.push(rejected_as(
        schema_error(
            "204 levels of properties",
            nested_properties(204),
            limits(|l| l.max_schema_depth(1000)),
            Exec,
            "",
            None,
        ),
        Expected::Rejected {
            class: Exec,
            subject: ErrorSubject::Schema,
            locations: vec![],
            mentions: Some("meta-schema".into()),
        },
    ));

    // Failures stay failures: a limit reached under any applicator is never a verdict. The
    // chain is longer than the default evaluation depth.
    let length = Limits::default().get_max_evaluation_depth() + 100;
    let chain = |wrap: fn(Value) -> Value| ref_chain(length, json!({"type": "string"}), wrap);
    let wrapped: [Wrapped; 8] = [
        ("not", |r| json!({"not": r}), json!({}), ""),
        (
            "anyOf",
            |r| json!({"anyOf": [r, {"type": "object"}]}),
            json!({}),
            "",
        ),
        (
            "oneOf",
            |r| json!({"oneOf": [{"type": "object"}, r]}),
            json!({}),
            "",
        ),
        (
            "if",
            |r| json!({"if": r, "then": true, "else": true}),
            json!({}),
            "",
        ),
        (
            "contains",
            |r| json!({"properties": {"x": {"contains": r}}}),
            json!({"x": [1]}),
            "/x/0",
        ),
        (
            "unevaluatedProperties",
            |r| json!({"unevaluatedProperties": r}),
            json!({"x": 1}),
            "/x",
        ),
        (
            "propertyNames",
            |r| json!({"propertyNames": {"not": r}}),
            json!({"x": 1}),
            "",
        ),
        (
            "dependentSchemas",
            |r| json!({"dependentSchemas": {"x": {"not": r}}}),
            json!({"x": 1}),
            "",
        ),
    ];
    for (keyword, wrap, arguments, location) in wrapped {
        cases.push(argument_error(
            format!("evaluation limit under {keyword}"),
            chain(wrap),
            none(),
            arguments,
            Exec,
            vec![location],
        ));
    }

    // Hostile inputs: each stops at a limit, none by exhausting the stack.
    cases.push(argument_error(
        "100,000 nested arrays",
        json!({}),
        none(),
        // Not `json!`: it would serialize the value, recursively.
        Value::Object(Map::from_iter([("a".to_string(), nested_arrays(100_000))])),
        Exec,
        vec![],
    ));
    // `uniqueItems` follows the items' nesting, past what a pass has admitted.
    let deep_pair = || {
        let pair = Value::Array(vec![nested_arrays(100_000), nested_arrays(100_000)]);
        Value::Object(Map::from_iter([("a".to_string(), pair)]))
    };
    cases.push(argument_error(
        "uniqueItems over two 100,000 nested arrays",
        json!({"properties": {"a": {"uniqueItems": true}}}),
        none(),
        deep_pair(),
        Exec,
        vec![],
    ));
    cases.push(argument_error(
        "uniqueItems over two 100,000 nested arrays, no argument depth limit",
        json!({"properties": {"a": {"uniqueItems": true}}}),
        limits(|l| l.max_argument_depth(usize::MAX)),
        deep_pair(),
        Validation,
        vec!["/a"],
    ));
    cases.push(argument_error(
        "100,000 nested objects",
        json!({}),
        none(),
        nested_objects(100_000),
        Exec,
        vec![],
    ));
    cases.push(argument_error(
        "100,000 nested objects, no argument depth limit",
        json!({"additionalProperties": {"$ref": "#/$defs/any"}, "$defs": {"any": {"additionalProperties": {"$ref": "#/$defs/any"}}}}),
        limits(|l| l.max_argument_depth(usize::MAX)),
        nested_objects(100_000),
        Exec,
        vec![],
    ));
    cases.push(schema_error(
        "10,000 nested schemas",
        nested_schema(10_000),
        none(),
        Exec,
        "",
        None,
    ));
    cases.push(rejected_as(
        schema_error(
            "2,000 nested schemas, no schema depth limit",
            nested_schema(2_000),
            limits(|l| l.max_schema_depth(usize::MAX)),
            Exec,
            "",
            None,
        ),
        Expected::Rejected {
            class: Exec,
            subject: ErrorSubject::Schema,
            locations: vec![],
            mentions: None,
        },
    ));
    cases.push(rejected_as(
        schema_error(
            "$ref chain of 20,000, reference limit 10,000",
            ref_chain(20_000, json!({}), |r| r),
            limits(|l| l.max_references(10_000)),
            Exec,
            "",
            None,
        ),
        Expected::Rejected {
            class: Exec,
            subject: ErrorSubject::Schema,
            locations: vec![],
            mentions: Some("limit of 10000 references".into()),
        },
    ));
    cases.push(argument_error(
        "$ref chain of 20,000, no reference limit",
        ref_chain(20_000, json!({}), |r| r),
        limits(|l| l.max_references(usize::MAX)),
        json!({}),
        Exec,
        vec![""],
    ));
    cases
}

/// Runs a case on the interpreter: builds the schema, then checks the arguments (if any),
/// holding `is_valid` to the same verdict as `validate`.
pub fn run_interpreted(case: &Case) -> Result<(), Error> {
    let tool = InputSchema::new(&case.schema, &case.options)?;
    let Some(arguments) = &case.arguments else {
        return Ok(());
    };
    let outcome = tool.validate(arguments);
    assert_eq!(
        tool.is_valid(arguments),
        outcome.is_ok(),
        "{}: is_valid disagrees with validate ({outcome:?})",
        case.name
    );
    outcome
}

/// Holds an outcome to what the case expects; `Err` says how it differs.
pub fn check(case: &Case, outcome: &Result<(), Error>) -> Result<(), String> {
    let (class, subject, locations, mentions) = match (&case.expected, outcome) {
        (Expected::Accepted, Ok(())) => return Ok(()),
        (Expected::Accepted, Err(e)) => return Err(format!("expected acceptance, got {e}")),
        (Expected::Rejected { .. }, Ok(())) => {
            return Err(format!("expected {:?}, got acceptance", case.expected));
        }
        (
            Expected::Rejected {
                class,
                subject,
                locations,
                mentions,
            },
            Err(_),
        ) => (class, subject, locations, mentions),
    };
    let e = outcome.as_ref().unwrap_err();
    if e.class() != *class || e.subject() != *subject {
        return Err(format!(
            "expected {class:?} about the {subject:?}, got {e:?}"
        ));
    }
    if let Some(text) = mentions {
        if !e.to_string().contains(text.as_str()) {
            return Err(format!("expected the error to mention {text:?}, got {e}"));
        }
    }
    let found: Vec<&str> = e.failures().iter().map(|f| f.instance_location()).collect();
    match subject {
        ErrorSubject::Schema => {
            if let Some(first) = locations.first() {
                if found.first() != Some(first) {
                    return Err(format!("expected the schema location {first:?}, got {e:?}"));
                }
            }
        }
        ErrorSubject::Instance => {
            // An empty list accepts any location (the hostile cases stop wherever the
            // limit is met).
            if !locations.is_empty() {
                let mut want = locations.clone();
                let mut got = found.clone();
                want.sort_unstable();
                got.sort_unstable();
                if want != got {
                    return Err(format!("expected failures at {want:?}, got {e:?}"));
                }
            }
        }
    }
    Ok(())
}
