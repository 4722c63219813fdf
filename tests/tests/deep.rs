//! Deep arguments are decided, not refused: recursive schemas (a `$ref` tree, `$dynamicRef`
//! recursion, an `allOf` + `$ref` chain, `unevaluatedProperties` under recursion, an outline
//! tree) against arguments at the default argument depth of 128, on both paths, each on a
//! thread with a 2 MiB stack — in the unoptimised build `cargo test` makes, too. Past the
//! evaluation depth, both paths stop with the same `ExecutionFailure` instead.

#![deny(warnings)]

use serde_json::{Value, json};
use toolschema::{ErrorClass, Limits, Options, Validate, Validator};
use toolschema_conformance::agree;

mod compiled {
    toolschema::include_validators!("compiled_deep.rs");
}

mod unbounded {
    toolschema::include_validators!("compiled_deep_unbounded.rs");
}

/// The argument depth `compiled_deep_unbounded.rs` was built with (`build.rs`).
const DEEP_ARGUMENT_DEPTH: usize = 100_000;

/// The stack of a spawned thread by default, and what these tests run on.
const STACK: usize = 2 << 20;

/// The default argument depth limit, which the deepest instances here reach exactly.
const ARGUMENT_DEPTH: usize = 128;

/// Runs `test` on a new thread with a [`STACK`] of stack.
fn on_small_stack(test: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(test)
        .unwrap()
        .join()
        .unwrap();
}

/// Non-empty arrays and objects nested in one another, as `max_argument_depth` counts them.
fn argument_depth(v: &Value) -> usize {
    match v {
        Value::Array(a) if !a.is_empty() => 1 + a.iter().map(argument_depth).max().unwrap(),
        Value::Object(o) if !o.is_empty() => 1 + o.values().map(argument_depth).max().unwrap(),
        _ => 0,
    }
}

fn nest(times: usize, leaf: Value, wrap: impl Fn(Value) -> Value) -> Value {
    (0..times).fold(leaf, |inner, _| wrap(inner))
}

/// A schema's instances, valid and invalid, built to `depth` from their leaves.
struct Shape {
    compiled: &'static dyn Validate,
    unbounded: &'static dyn Validate,
    schema: &'static str,
    /// The instance with `wraps` levels above a valid or an invalid leaf.
    build: fn(wraps: usize, valid: bool) -> Value,
    /// Argument levels one wrap adds.
    per_wrap: usize,
}

fn ref_tree(wraps: usize, valid: bool) -> Value {
    let leaf = if valid {
        json!({"name": "leaf", "tags": [1]})
    } else {
        json!({"name": 7, "tags": [1]})
    };
    nest(
        wraps,
        leaf,
        |inner| json!({"name": "n", "children": [inner]}),
    )
}

fn dynamic_tree(wraps: usize, valid: bool) -> Value {
    let leaf = if valid {
        json!({"data": [1]})
    } else {
        json!({"data": [1], "extra": true})
    };
    nest(wraps, leaf, |inner| json!({"children": [inner]}))
}

fn chain(wraps: usize, valid: bool) -> Value {
    let leaf = if valid {
        json!({"value": 1})
    } else {
        json!({"value": 1, "extra": true})
    };
    nest(wraps, leaf, |inner| json!({"next": inner}))
}

fn typed_chain(wraps: usize, valid: bool) -> Value {
    let leaf = if valid {
        json!({"value": 1})
    } else {
        json!({"value": "one"})
    };
    nest(wraps, leaf, |inner| json!({"value": 0, "next": inner}))
}

fn outline(wraps: usize, valid: bool) -> Value {
    let leaf = if valid {
        json!({"heading": "leaf"})
    } else {
        json!({"heading": ""})
    };
    let section = nest(
        wraps,
        leaf,
        |inner| json!({"heading": "h", "children": [inner]}),
    );
    json!({"title": "t", "sections": [section]})
}

/// A schema's `Shape`, from the name of its validators, its instance builder and how many
/// argument levels one wrap adds.
macro_rules! shape {
    ($validator:ident, $build:ident, $per_wrap:expr) => {
        Shape {
            compiled: &compiled::$validator,
            unbounded: &unbounded::$validator,
            schema: compiled::$validator::SCHEMA_JSON,
            build: $build,
            per_wrap: $per_wrap,
        }
    };
}

fn shape(name: &str) -> Shape {
    match name {
        "ref_tree" => shape!(RefTree, ref_tree, 2),
        "dynamic_tree" => shape!(DynamicTree, dynamic_tree, 2),
        "all_of_chain" => shape!(AllOfChain, typed_chain, 1),
        "unevaluated_recursion" => shape!(UnevaluatedRecursion, chain, 1),
        "outline" => shape!(Outline, outline, 2),
        _ => panic!("no schema {name} in tests/deep"),
    }
}

/// At the deepest the default argument limit allows, both paths decide: the valid instance is
/// accepted, the invalid one rejected with its failure at the bottom.
fn decided_at_the_argument_limit(name: &'static str) {
    on_small_stack(move || {
        let s = shape(name);
        let schema: Value = serde_json::from_str(s.schema).unwrap();
        let interpreted = Validator::new(&schema).unwrap();
        let leaf_depth = argument_depth(&(s.build)(0, true));
        let wraps = (ARGUMENT_DEPTH - leaf_depth) / s.per_wrap;
        for valid in [true, false] {
            let instance = (s.build)(wraps, valid);
            let depth = argument_depth(&instance);
            assert!(
                depth == ARGUMENT_DEPTH || depth + 1 == ARGUMENT_DEPTH,
                "{name}: depth {depth}"
            );
            assert_eq!(
                agree(s.compiled, &interpreted, &instance),
                Ok(valid),
                "{name}"
            );
            if !valid {
                let err = interpreted.validate(&instance).unwrap_err();
                assert_eq!(err.class(), ErrorClass::Validation, "{name}: {err}");
                let deepest = err
                    .failures()
                    .iter()
                    .map(|f| f.instance_location().matches('/').count())
                    .max()
                    .unwrap();
                assert!(deepest >= depth - 2, "{name}: {err}");
            }
        }
    });
}

/// Past the evaluation depth (arguments nested far beyond what `max_argument_depth` allows by
/// default), both paths stop with the same `ExecutionFailure`, valid leaf or not.
fn refused_past_the_evaluation_depth(name: &'static str) {
    on_small_stack(move || {
        let s = shape(name);
        let schema: Value = serde_json::from_str(s.schema).unwrap();
        let limits = Limits::new().max_argument_depth(DEEP_ARGUMENT_DEPTH);
        let interpreted = Validator::with_options(&schema, &Options::new().limits(limits)).unwrap();
        // Every wrap takes at least three levels of evaluation, so this passes the limit by
        // half again; more would only make the instance (whose drop recurses) deeper.
        let wraps = Limits::new().get_max_evaluation_depth() / 2;
        for valid in [true, false] {
            let instance = (s.build)(wraps, valid);
            assert_eq!(agree(s.unbounded, &interpreted, &instance), Ok(false));
            let err = interpreted.validate(&instance).unwrap_err();
            assert_eq!(err.class(), ErrorClass::ExecutionFailure, "{name}: {err}");
            assert!(
                err.message().contains("evaluation nests more than"),
                "{name}: {}",
                err.message()
            );
            assert!(!s.unbounded.is_valid(&instance));
        }
        // Inside the evaluation depth the same validators decide.
        let instance = (s.build)(ARGUMENT_DEPTH, true);
        assert_eq!(agree(s.unbounded, &interpreted, &instance), Ok(true));
    });
}

macro_rules! deep_tests {
    ($($name:ident),*) => {
        mod decided {
            $(#[test] fn $name() { super::decided_at_the_argument_limit(stringify!($name)); })*
        }
        mod refused {
            $(#[test] fn $name() { super::refused_past_the_evaluation_depth(stringify!($name)); })*
        }
    };
}

deep_tests!(
    ref_tree,
    dynamic_tree,
    all_of_chain,
    unevaluated_recursion,
    outline
);
