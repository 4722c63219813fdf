//! Instances from a schema: one built to satisfy it, and mutations of that one that each break
//! one keyword at one place. Built from the keywords alone (no validator decides what is
//! generated), so the verdicts the engines give are all measured, none assumed.

use serde_json::{Map, Value, json};

/// Mutations kept per schema, at most: the large tool schemas would give hundreds.
const MAX_MUTATIONS: usize = 48;
/// How deep generation follows subschemas and references.
const MAX_DEPTH: usize = 8;

/// A string that no format accepts: an unclosed template brace, spaces, a bad escape.
const NOT_ANY_FORMAT: &str = "{\\ not valid (";

/// The built instance, then each mutation with the keyword location it breaks.
pub fn instances(root: &Value) -> Vec<(String, Value)> {
    let generator = Generator { root };
    let valid = generator.valid(root, 0);
    let mut out = vec![("valid".to_string(), valid.clone())];
    let mut mutations = Vec::new();
    generator.mutate(root, &valid, "", "", 0, &mut mutations);
    if let Some(format) = root.get("format").and_then(Value::as_str) {
        for sample in edge_samples(format) {
            out.push((format!("{format} sample"), json!(sample)));
        }
    }
    for (keyword, at, replacement) in mutations.into_iter().take(MAX_MUTATIONS) {
        let mut instance = valid.clone();
        if replace(&mut instance, &at, replacement) {
            out.push((keyword, instance));
        }
    }
    out
}

struct Generator<'a> {
    root: &'a Value,
}

/// A replacement for the value at an instance pointer, breaking the keyword at a keyword
/// location. `None` as the replacement removes the value.
type Mutation = (String, String, Option<Value>);

impl Generator<'_> {
    /// The target of a local reference.
    fn follow(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        self.root.pointer(pointer)
    }

    fn valid(&self, schema: &Value, depth: usize) -> Value {
        let Some(s) = schema.as_object() else {
            return Value::Null;
        };
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        if let Some(c) = s.get("const") {
            return c.clone();
        }
        if let Some(first) = s
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            return first.clone();
        }
        let typed = s.contains_key("type") || s.contains_key("properties");
        if !typed {
            if let Some(target) = s
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| self.follow(r))
            {
                return self.valid(target, depth + 1);
            }
            for key in ["allOf", "anyOf", "oneOf"] {
                if let Some(first) = s.get(key).and_then(Value::as_array).and_then(|b| b.first()) {
                    return self.valid(first, depth + 1);
                }
            }
        }
        match type_of(s) {
            "object" => self.object(s, depth),
            "array" => self.array(s, depth),
            "string" => string(s),
            "integer" | "number" => number(s),
            "boolean" => json!(true),
            _ => Value::Null,
        }
    }

    fn object(&self, s: &Map<String, Value>, depth: usize) -> Value {
        let mut map = Map::new();
        let properties = s.get("properties").and_then(Value::as_object);
        let required = s.get("required").and_then(Value::as_array);
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            let sub = properties
                .and_then(|p| p.get(name))
                .unwrap_or(&Value::Bool(true));
            map.insert(name.to_string(), self.valid(sub, depth + 1));
        }
        // Optional properties too, so that their keywords can be broken.
        for (name, sub) in properties.into_iter().flatten().take(6) {
            if !map.contains_key(name) {
                map.insert(name.clone(), self.valid(sub, depth + 1));
            }
        }
        Value::Object(map)
    }

    fn array(&self, s: &Map<String, Value>, depth: usize) -> Value {
        let mut items: Vec<Value> = s
            .get("prefixItems")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|sub| self.valid(sub, depth + 1))
            .collect();
        let min = s
            .get("minItems")
            .and_then(Value::as_u64)
            .unwrap_or(1)
            .min(4) as usize;
        let item = s.get("items").unwrap_or(&Value::Bool(true));
        while items.len() < min {
            let mut next = self.valid(item, depth + 1);
            if s.get("uniqueItems") == Some(&Value::Bool(true)) && items.contains(&next) {
                next = json!(items.len());
            }
            items.push(next);
        }
        if let Some(contains) = s.get("contains") {
            items.push(self.valid(contains, depth + 1));
        }
        Value::Array(items)
    }

    /// Appends one mutation per keyword of `schema` (and of its subschemas that apply at a
    /// place `instance` has), `ip` being the instance location and `kp` the keyword location.
    fn mutate(
        &self,
        schema: &Value,
        instance: &Value,
        ip: &str,
        kp: &str,
        depth: usize,
        out: &mut Vec<Mutation>,
    ) {
        let Some(s) = schema.as_object() else {
            return;
        };
        if depth > MAX_DEPTH || out.len() >= MAX_MUTATIONS {
            return;
        }
        let push = |out: &mut Vec<Mutation>, keyword: &str, replacement: Option<Value>| {
            out.push((format!("{kp}/{keyword}"), ip.to_string(), replacement));
        };
        for (keyword, value) in s {
            match (keyword.as_str(), instance) {
                ("type", _) => push(out, "type", Some(other_type(value))),
                ("enum" | "const", _) => push(out, keyword, Some(json!({"mutated": [keyword]}))),
                ("minimum" | "exclusiveMinimum", Value::Number(_)) => {
                    let bound = value.as_f64().unwrap_or(0.0);
                    push(out, keyword, Some(json!(bound - 1.0)));
                }
                ("maximum" | "exclusiveMaximum", Value::Number(_)) => {
                    let bound = value.as_f64().unwrap_or(0.0);
                    push(out, keyword, Some(json!(bound + 1.0)));
                }
                ("multipleOf", Value::Number(n)) => {
                    let step = value.as_f64().unwrap_or(1.0);
                    push(
                        out,
                        keyword,
                        Some(json!(n.as_f64().unwrap_or(0.0) + step / 2.0)),
                    );
                }
                ("minLength", Value::String(_)) => {
                    let min = value.as_u64().unwrap_or(0).min(64) as usize;
                    push(out, keyword, Some(json!("é".repeat(min.saturating_sub(1)))));
                }
                ("maxLength", Value::String(_)) => {
                    let max = value.as_u64().unwrap_or(0).min(4096) as usize;
                    push(out, keyword, Some(json!("é".repeat(max + 1))));
                }
                ("pattern", Value::String(_)) => push(out, keyword, Some(json!("\u{2028}\r!"))),
                ("format", Value::String(_)) => push(out, keyword, Some(json!(NOT_ANY_FORMAT))),
                ("required", Value::Object(map)) => {
                    for name in value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        if map.contains_key(name) {
                            out.push((format!("{kp}/required"), child(ip, name), None));
                            break;
                        }
                    }
                }
                ("additionalProperties" | "unevaluatedProperties", Value::Object(map)) => {
                    let mut map = map.clone();
                    map.insert("zz_unexpected".into(), json!({"mutated": [null, 1.5]}));
                    push(out, keyword, Some(Value::Object(map)));
                }
                ("propertyNames", Value::Object(map)) => {
                    let mut map = map.clone();
                    map.insert(" not a name ".into(), json!(1));
                    push(out, keyword, Some(Value::Object(map)));
                }
                ("minProperties", Value::Object(_)) => push(out, keyword, Some(json!({}))),
                ("maxProperties", Value::Object(map)) => {
                    let max = value.as_u64().unwrap_or(0).min(64) as usize;
                    let mut map = map.clone();
                    for i in 0..=max {
                        map.insert(format!("zz_{i}"), json!(i));
                    }
                    push(out, keyword, Some(Value::Object(map)));
                }
                ("dependentRequired", Value::Object(map)) => {
                    if let Some((name, needed)) = value.as_object().and_then(|d| d.iter().next()) {
                        let mut map = map.clone();
                        map.entry(name.clone()).or_insert(json!(1));
                        for n in needed
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                        {
                            map.remove(n);
                        }
                        push(out, keyword, Some(Value::Object(map)));
                    }
                }
                ("properties", Value::Object(map)) => {
                    for (name, sub) in value.as_object().into_iter().flatten() {
                        if let Some(v) = map.get(name) {
                            let kp = format!("{kp}/properties/{}", escape(name));
                            self.mutate(sub, v, &child(ip, name), &kp, depth + 1, out);
                        }
                    }
                }
                ("minItems", Value::Array(_)) => push(out, keyword, Some(json!([]))),
                ("maxItems", Value::Array(items)) => {
                    let max = value.as_u64().unwrap_or(0).min(64) as usize;
                    let filler = items.first().cloned().unwrap_or(Value::Null);
                    push(out, keyword, Some(Value::Array(vec![filler; max + 1])));
                }
                ("uniqueItems", Value::Array(items)) if value == &Value::Bool(true) => {
                    let first = items.first().cloned().unwrap_or(json!(1));
                    push(out, keyword, Some(json!([first.clone(), first])));
                }
                ("contains" | "minContains", Value::Array(_)) => {
                    push(out, keyword, Some(json!([{"mutated": "contains"}])));
                }
                ("unevaluatedItems", Value::Array(items)) => {
                    let mut items = items.clone();
                    items.push(json!({"mutated": "unevaluated"}));
                    push(out, keyword, Some(Value::Array(items)));
                }
                ("prefixItems", Value::Array(items)) => {
                    for (i, (sub, v)) in value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .zip(items)
                        .enumerate()
                    {
                        let kp = format!("{kp}/prefixItems/{i}");
                        self.mutate(sub, v, &format!("{ip}/{i}"), &kp, depth + 1, out);
                    }
                }
                ("items", Value::Array(items)) => {
                    let skip = s
                        .get("prefixItems")
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len);
                    if let Some(v) = items.get(skip) {
                        let kp = format!("{kp}/items");
                        self.mutate(value, v, &format!("{ip}/{skip}"), &kp, depth + 1, out);
                    }
                }
                ("not", _) => push(out, keyword, Some(self.valid(value, depth + 1))),
                ("allOf" | "anyOf" | "oneOf", _) => {
                    if let Some(first) = value.as_array().and_then(|b| b.first()) {
                        let kp = format!("{kp}/{keyword}/0");
                        self.mutate(first, instance, ip, &kp, depth + 1, out);
                    }
                }
                ("then" | "else" | "dependentSchemas", _) => {}
                ("$ref", _) => {
                    if let Some(target) = value.as_str().and_then(|r| self.follow(r)) {
                        let kp = format!("{kp}/$ref");
                        self.mutate(target, instance, ip, &kp, depth + 1, out);
                    }
                }
                _ => {}
            }
        }
    }
}

fn type_of(s: &Map<String, Value>) -> &str {
    match s.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(ts)) => ts.first().and_then(Value::as_str).unwrap_or("null"),
        _ if [
            "properties",
            "required",
            "additionalProperties",
            "minProperties",
        ]
        .iter()
        .any(|k| s.contains_key(*k)) =>
        {
            "object"
        }
        _ if ["items", "prefixItems", "minItems", "contains"]
            .iter()
            .any(|k| s.contains_key(*k)) =>
        {
            "array"
        }
        _ if ["minLength", "maxLength", "pattern", "format"]
            .iter()
            .any(|k| s.contains_key(*k)) =>
        {
            "string"
        }
        _ if [
            "minimum",
            "maximum",
            "multipleOf",
            "exclusiveMinimum",
            "exclusiveMaximum",
        ]
        .iter()
        .any(|k| s.contains_key(*k)) =>
        {
            "number"
        }
        _ => "null",
    }
}

/// A value of a type `types` does not list.
fn other_type(types: &Value) -> Value {
    let listed = |t: &str| match types {
        Value::String(s) => s == t,
        Value::Array(ts) => ts.iter().any(|x| x == t),
        _ => false,
    };
    for (name, value) in [
        ("object", json!({"mutated": "type"})),
        ("string", json!("mutated")),
        ("null", Value::Null),
        ("array", json!(["mutated"])),
        ("boolean", json!(false)),
    ] {
        if !listed(name) {
            return value;
        }
    }
    json!(2.5)
}

/// A string for a string schema: a sample of its format, padded to its minimum length.
fn string(s: &Map<String, Value>) -> Value {
    let mut text = s
        .get("format")
        .and_then(Value::as_str)
        .map_or("abc", format_sample)
        .to_string();
    let min = s
        .get("minLength")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(256) as usize;
    while text.chars().count() < min {
        text.push('a');
    }
    if let Some(max) = s.get("maxLength").and_then(Value::as_u64) {
        text = text.chars().take(max as usize).collect();
    }
    Value::String(text)
}

/// A value each format accepts.
fn format_sample(format: &str) -> &'static str {
    match format {
        "date-time" => "2024-02-29T23:59:60Z",
        "date" => "2024-02-29",
        "time" => "12:30:00.5+02:00",
        "duration" => "P1Y2M3DT4H5M6S",
        "email" => "a.b@example.com",
        "idn-email" => "用户@例子.广告",
        "hostname" => "example.com",
        "idn-hostname" => "bücher.example",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "uri" => "https://example.com/a?b=c#d",
        "uri-reference" => "../a/b?c",
        "iri" => "https://例え.jp/パス",
        "iri-reference" => "パス/a",
        "uri-template" => "https://example.com/{id}{?q,lang}",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "json-pointer" => "/a~1b/0",
        "relative-json-pointer" => "1/a",
        "regex" => "^[a-z]+\\d*$",
        _ => "abc",
    }
}

/// Values at the edges of each format's grammar, for a schema whose root has that format:
/// forms the standards allow that a checker may forget, and near misses.
fn edge_samples(format: &str) -> &'static [&'static str] {
    match format {
        "date-time" => &[
            "1990-12-31T15:59:60-08:00",
            "2024-01-01t00:00:00z",
            "2024-01-01T00:00:00.123456789+14:00",
            "2024-01-01 00:00:00Z",
            "2023-02-29T00:00:00Z",
        ],
        "date" => &["2000-02-29", "1900-02-29", "0000-01-01", "2024-1-01"],
        "time" => &["23:59:60Z", "00:00:00.5-00:00", "12:00:00", "24:00:00Z"],
        "duration" => &["P1W", "PT0S", "P1Y2W", "PT1.5S", "P"],
        "email" => &[
            "\"quoted local\"@example.com",
            "a@[127.0.0.1]",
            "a@[IPv6:::1]",
            "a.@example.com",
            "a@example",
        ],
        "idn-email" => &[
            "用户@例子.广告",
            "\"用 户\"@example.com",
            "ü@bücher.example",
            "a@[IPv6:2001:db8::1]",
            "a@b@c",
        ],
        "hostname" => &[
            "example.com.",
            "xn--bcher-kva.example",
            "a-.example",
            "1.2.3.4",
            "-a.example",
        ],
        "idn-hostname" => &[
            "bücher.example",
            "例え.テスト",
            "xn--bcher-kva.example",
            "a\u{300}.example",
            "ab--c.example",
        ],
        "ipv4" => &["0.0.0.0", "255.255.255.255", "01.2.3.4", "1.2.3"],
        "ipv6" => &[
            "::",
            "::ffff:192.0.2.1",
            "1:2:3:4:5:6:7::",
            "fe80::1%eth0",
            "1::2::3",
        ],
        "uri" => &[
            "urn:isbn:0451450523",
            "http://[::1]:80/",
            "a:",
            "http://a b",
            "//host/path",
        ],
        "uri-reference" => &["", "#frag", "//host", "a b", "%zz"],
        "iri" => &[
            "http://例え.jp/a?ü#ß",
            "mailto:用户@例子.广告",
            "例え",
            "http://a\u{7f}",
        ],
        "iri-reference" => &["パス?クエリ", "", "\\windows", "#ü"],
        "uri-template" => &[
            "{/path*}{?q*}",
            "{+base}x{#frag}",
            "{var:3}",
            "{;a,b}{&c}",
            "{",
            "{a b}",
            "{=x}",
        ],
        "uuid" => &[
            "00000000-0000-0000-0000-000000000000",
            "2EB8AA08-AA98-11EA-B4AA-73B441D16380",
            "2eb8aa08aa9811eab4aa73b441d16380",
            "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
        ],
        "json-pointer" => &["", "/", "/~01", "/~2", "a"],
        "relative-json-pointer" => &["0", "0#", "1/a/~1", "-1", "01"],
        "regex" => &["^(?<n>a)\\k<n>$", "(?=a)", "\\p{L}+", "[", "\\c"],
        _ => &[],
    }
}

/// A number inside the bounds, on the `multipleOf` grid where one is given.
fn number(s: &Map<String, Value>) -> Value {
    let get = |k: &str| s.get(k).and_then(Value::as_f64);
    let step = get("multipleOf").unwrap_or(1.0);
    let low = get("minimum").or(get("exclusiveMinimum").map(|b| b + step));
    let mut n = low.map_or(0.0, |l| (l / step).ceil() * step);
    if let Some(high) = get("maximum").or(get("exclusiveMaximum").map(|b| b - step)) {
        n = n.min((high / step).floor() * step);
    }
    if n.fract() == 0.0 && n.abs() < 1e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn child(ip: &str, name: &str) -> String {
    format!("{ip}/{}", escape(name))
}

/// Replaces (or with `None`, removes) the value at `pointer`; false if there is none.
fn replace(instance: &mut Value, pointer: &str, replacement: Option<Value>) -> bool {
    match replacement {
        Some(value) => match instance.pointer_mut(pointer) {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        },
        None => {
            let Some((parent, last)) = pointer.rsplit_once('/') else {
                return false;
            };
            let name = last.replace("~1", "/").replace("~0", "~");
            instance
                .pointer_mut(parent)
                .and_then(Value::as_object_mut)
                .is_some_and(|map| map.remove(&name).is_some())
        }
    }
}
