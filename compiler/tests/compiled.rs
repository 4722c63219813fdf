//! The snapshots compiled as ordinary code, with every warning an error, and checked against
//! the interpreter on a few instances each.

#![deny(warnings)]

use serde_json::{Value, json};
use toolschema::{Options, Validate, Validator};

mod flat_tool {
    include!("snapshots/flat_tool.rs");
}
mod nested_defs {
    include!("snapshots/nested_defs.rs");
}
mod recursive_tree {
    include!("snapshots/recursive_tree.rs");
}
mod unevaluated_all_of {
    include!("snapshots/unevaluated_all_of.rs");
}
mod dynamic_ref {
    include!("snapshots/dynamic_ref.rs");
}
mod file_actions {
    include!("snapshots/file_actions.rs");
}
mod member_names {
    include!("snapshots/member_names.rs");
}
mod shapes {
    include!("snapshots/shapes.rs");
}
mod expression {
    include!("snapshots/expression.rs");
}

/// The runtime as a crate that re-exports it would offer it.
mod facade {
    pub use toolschema;
}

/// Generated under `Builder::runtime_path("crate::facade::toolschema")`: the validator and its
/// types reach the runtime, and serde, only through the re-export.
mod runtime_path {
    include!("snapshots/runtime_path.rs");

    #[test]
    fn a_validator_and_its_types_run_through_the_re_export() {
        use crate::facade::toolschema::Validate;
        let valid = serde_json::json!({"query": "rust", "limit": 3.0});
        assert!(FlatTool.is_valid(&valid));
        let args = FlatToolArgs::parse(&valid).unwrap();
        assert_eq!((args.query.as_str(), args.limit), ("rust", Some(3)));
        assert!(FlatToolArgs::parse(&serde_json::json!({"query": ""})).is_err());
    }
}

/// Generated code names what it uses by absolute path, so that what the including module
/// defines (a `Result` alias with one parameter, items named like std's, modules named `core`
/// or `std`, macros named like std's) changes nothing. Each snapshot compiles here too, and
/// one runs.
#[allow(
    dead_code,
    non_camel_case_types,
    unused_macros,
    clippy::upper_case_acronyms
)]
mod shadowing {
    type Result<T> = ::core::result::Result<T, ()>;
    struct Option;
    struct Some;
    struct None;
    struct Ok;
    struct Err;
    struct Vec;
    struct String;
    struct Box;
    struct Value;
    struct Error;
    struct Default;
    mod core {}
    mod std {}
    mod serde_json {}
    macro_rules! matches {
        ($($any:tt)*) => {
            ::core::compile_error!("the including module's `matches!`")
        };
    }
    macro_rules! vec {
        ($($any:tt)*) => {
            ::core::compile_error!("the including module's `vec!`")
        };
    }

    include!("snapshots/flat_tool.rs");
    include!("snapshots/nested_defs.rs");
    include!("snapshots/recursive_tree.rs");
    include!("snapshots/unevaluated_all_of.rs");
    include!("snapshots/dynamic_ref.rs");
    include!("snapshots/file_actions.rs");
    include!("snapshots/member_names.rs");
    include!("snapshots/shapes.rs");
    include!("snapshots/expression.rs");

    #[test]
    fn generated_code_is_unaffected_by_the_names_around_it() {
        use ::toolschema::Validate;
        let valid = ::serde_json::json!({"query": "rust", "limit": 3});
        assert!(FlatTool.is_valid(&valid));
        let err = FlatTool
            .validate(&::serde_json::json!({"query": ""}))
            .unwrap_err();
        assert_eq!(err.failures().len(), 1);
        assert!(!FlatTool.is_valid(&::serde_json::json!([])));
    }
}

/// Both paths give the same verdicts and the same failures; returns the verdict.
fn agree(compiled: &dyn Validate, schema: &str, instance: &Value) -> bool {
    let schema: Value = serde_json::from_str(schema).unwrap();
    let interpreted = Validator::with_options(&schema, &Options::new()).unwrap();
    let quick = compiled.is_valid(instance);
    assert_eq!(
        quick,
        interpreted.is_valid(instance),
        "is_valid on {instance}"
    );
    let full = compiled.validate(instance);
    let reference = interpreted.validate(instance);
    assert_eq!(quick, full.is_ok(), "is_valid and validate on {instance}");
    match (full, reference) {
        (Ok(()), Ok(())) => {}
        (Err(a), Err(b)) => {
            assert_eq!(a.class(), b.class(), "error class on {instance}");
            assert_eq!(a.failures(), b.failures(), "failures on {instance}");
        }
        (a, b) => panic!("compiled {a:?}, interpreted {b:?} on {instance}"),
    }
    quick
}

#[test]
fn flat_tool() {
    let s = flat_tool::FlatTool::SCHEMA_JSON;
    let v = &flat_tool::FlatTool;
    assert!(agree(
        v,
        s,
        &json!({"query": "rust", "limit": 10, "sort": "date"})
    ));
    assert!(!agree(
        v,
        s,
        &json!({"query": "", "limit": 0, "sort": "name", "x": 1})
    ));
    assert!(!agree(v, s, &json!({"limit": 1.5, "site": "http://a"})));
    assert!(!agree(v, s, &json!([1, 2])));
}

#[test]
fn nested_defs() {
    let s = nested_defs::NestedDefs::SCHEMA_JSON;
    let v = &nested_defs::NestedDefs;
    assert!(agree(
        v,
        s,
        &json!({"title": "t", "assignee": {"login": "octo-cat", "id": 3}, "labels": ["bug"]})
    ));
    assert!(!agree(
        v,
        s,
        &json!({"title": "t", "assignee": {"login": "Octo Cat", "id": 0}, "labels": ["", ""]})
    ));
}

#[test]
fn recursive_tree() {
    let s = recursive_tree::RecursiveTree::SCHEMA_JSON;
    let v = &recursive_tree::RecursiveTree;
    assert!(agree(
        v,
        s,
        &json!({"name": "a", "children": [{"name": "b", "children": []}]})
    ));
    assert!(!agree(
        v,
        s,
        &json!({"name": "a", "children": [{"children": [{"name": 1}]}]})
    ));
}

#[test]
fn unevaluated_over_all_of() {
    let s = unevaluated_all_of::UnevaluatedAllOf::SCHEMA_JSON;
    let v = &unevaluated_all_of::UnevaluatedAllOf;
    assert!(agree(
        v,
        s,
        &json!({"path": "a", "encoding": "utf-8", "start": 1, "end": 2})
    ));
    assert!(!agree(v, s, &json!({"path": "a", "mode": "r"})));
    assert!(!agree(
        v,
        s,
        &json!({"path": "a", "start": "x", "extra": 1})
    ));
}

#[test]
fn dynamic_ref() {
    let s = dynamic_ref::DynamicRef::SCHEMA_JSON;
    let v = &dynamic_ref::DynamicRef;
    assert!(agree(v, s, &json!({"data": 1, "children": [{"data": 2}]})));
    assert!(!agree(
        v,
        s,
        &json!({"data": 1, "children": [{"data": 2, "extra": true}]})
    ));
    assert!(!agree(v, s, &json!({"extra": true})));
}

#[test]
fn member_names_and_boolean_members() {
    let s = member_names::MemberNames::SCHEMA_JSON;
    let v = &member_names::MemberNames;
    assert!(agree(v, s, &json!({"numbered": {}, "flagged": {}})));
    // No branch of these allows a string, so no name passes.
    assert!(!agree(v, s, &json!({"numbered": {"a": 1}})));
    assert!(!agree(v, s, &json!({"flagged": {"a": 1}})));
    // `minimum` and `items` say nothing about a name.
    assert!(agree(
        v,
        s,
        &json!({"short": {"abc": 1}, "tagged": {"x": 1}})
    ));
    assert!(!agree(v, s, &json!({"short": {"abcd": 1}})));
    assert!(!agree(v, s, &json!({"tagged": {"id": 1}})));
    assert!(agree(v, s, &json!({"pair": [1]})));
    assert!(!agree(v, s, &json!({"pair": [1, 2, 3]})));
    assert!(agree(v, s, &json!({"labels": {"k": "v"}})));
    assert!(!agree(v, s, &json!({"labels": {"k": 1}})));
}

#[test]
fn discriminated_one_of() {
    let s = file_actions::FileActions::SCHEMA_JSON;
    let v = &file_actions::FileActions;
    assert!(agree(v, s, &json!({"action": "read", "path": "a"})));
    assert!(agree(v, s, &json!({"action": "remove", "path": "a"})));
    assert!(agree(v, s, &json!({"action": "list"})));
    // Two branches hold: the one `action` picks and the unconstrained `dry_run` one.
    assert!(!agree(v, s, &json!({"action": "list", "dry_run": true})));
    // Only the unconstrained branch can hold a value no branch names.
    assert!(agree(v, s, &json!({"action": "copy", "dry_run": true})));
    assert!(!agree(v, s, &json!({"action": "copy", "path": "a"})));
    assert!(!agree(v, s, &json!({"action": 7, "path": "a"})));
    assert!(!agree(v, s, &json!({"action": "write", "path": "a"})));
    assert!(!agree(
        v,
        s,
        &json!({"action": "move", "from": "a", "to": 1})
    ));
    assert!(!agree(v, s, &json!({"path": "a"})));
    // `timeout`'s branches are told apart by type before they run.
    assert!(agree(v, s, &json!({"action": "list", "timeout": 5})));
    assert!(agree(v, s, &json!({"action": "list", "timeout": "5s"})));
    assert!(agree(v, s, &json!({"action": "list", "timeout": null})));
    assert!(!agree(v, s, &json!({"action": "list", "timeout": 0})));
    assert!(!agree(v, s, &json!({"action": "list", "timeout": "5"})));
    assert!(!agree(v, s, &json!({"action": "list", "timeout": [5]})));
}

/// Items that pass a type of scalars are admitted to the argument limits only when
/// collecting (`Node::passes_only_scalars`); either way both paths agree, within the limits
/// and past them.
#[test]
fn shapes() {
    let s = shapes::Shapes::SCHEMA_JSON;
    let v = &shapes::Shapes;
    let point = |at: Value| json!({"kind": "point", "at": at});
    let path = |along: Value| json!({"kind": "path", "along": along});
    for (instance, valid) in [
        (json!({"shapes": []}), true),
        (
            json!({"shapes": [point(json!([1, 2])), path(json!([[0, 0], [1, 1.5, 2]]))]}),
            true,
        ),
        (json!({"shapes": [point(json!([1]))]}), false),
        (json!({"shapes": [point(json!([1, "2"]))]}), false),
        (json!({"shapes": [path(json!([[0, 0], [1, [2]]]))]}), false),
        (
            json!({"shapes": [path(json!([[0, 0], [1, "x".repeat(1 << 25)]]))]}),
            false,
        ),
        (
            json!({"shapes": [point(json!([1, 2])), {"kind": "circle"}]}),
            false,
        ),
    ] {
        assert_eq!(agree(v, s, &instance), valid, "{instance}");
    }
}

/// A recursive `oneOf` whose branches may share an instance: a collecting evaluation runs them
/// in the quick flavour, which locates no halt, and runs a branch that halts again collecting
/// (the limit tests of `tests/` reach the evaluation limits there). Nested past the argument
/// depth limit, both paths fail with the same `ExecutionFailure`.
#[test]
fn expression() {
    let s = expression::Expression::SCHEMA_JSON;
    let v = &expression::Expression;
    let nest = |depth: usize, leaf: Value| {
        (0..depth).fold(
            leaf,
            |inner, i| json!({"op": if i % 2 == 0 { "add" } else { "mul" }, "args": [1, inner]}),
        )
    };
    for depth in [0, 1, 5, 40] {
        for (leaf, valid) in [
            (json!(2.5), true),
            (json!({"var": "x"}), true),
            (json!({"var": 1}), false),
        ] {
            let instance = json!({"formula": nest(depth, leaf)});
            assert_eq!(agree(v, s, &instance), valid, "{depth} {instance}");
        }
    }
    let deep = json!({"formula": nest(100, json!(1))});
    assert!(!agree(v, s, &deep));
    let halted = v.validate(&deep).unwrap_err();
    assert_eq!(halted.class(), toolschema::ErrorClass::ExecutionFailure);
}
