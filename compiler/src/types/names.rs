//! Rust names for JSON names: deterministic, and distinct within their scope.
//!
//! A member name becomes a snake_case field, a string or a definition name an UpperCamelCase
//! type or variant. Characters that cannot be in an identifier separate words; a name that
//! starts with a digit gets a letter in front; a keyword gets `r#` (fields) or a trailing
//! underscore (types). Two JSON names that map to one Rust name are told apart by a number
//! after the later one, in schema order, so the mapping depends on the schema alone.

use std::collections::HashSet;

/// The words of `name`: runs of ASCII letters and digits, split where a lower-case letter or
/// a digit is followed by an upper-case one (`maxResults` → `max`, `Results`).
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower && !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            current.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `maxResults` → `max_results`; `$ref` → `ref_`... see the module documentation.
pub fn field(name: &str) -> String {
    let mut out = words(name)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if out.is_empty() {
        out.push_str("field");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    // Keywords that cannot be raw identifiers either.
    if matches!(out.as_str(), "self" | "super" | "crate") {
        out.push('_');
    }
    out
}

/// `file-path` → `FilePath`.
pub fn camel(name: &str) -> String {
    let mut out: String = words(name)
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first.into_iter().chain(chars).collect::<String>()
        })
        .collect();
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// Whether `name` is an identifier only as a raw identifier (a keyword).
fn is_keyword(name: &str) -> bool {
    syn::parse_str::<syn::Ident>(name).is_err()
}

/// Names handed out in one scope (the fields of a struct, the variants of an enum, the types
/// of a schema).
#[derive(Default)]
pub struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// Takes `name`, or the first of `name2`, `name3`, … still free.
    pub fn take(&mut self, name: String) -> String {
        let mut candidate = name.clone();
        let mut n = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{name}{n}");
            n += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }
}

/// The identifier tokens of a field name, raw when it is a keyword.
pub fn field_ident(name: &str) -> syn::Ident {
    if is_keyword(name) {
        syn::Ident::new_raw(name, proc_macro2::Span::call_site())
    } else {
        syn::Ident::new(name, proc_macro2::Span::call_site())
    }
}

/// The identifier tokens of a type or variant name; a keyword (`Self`) gets an underscore.
pub fn type_ident(name: &str) -> syn::Ident {
    if is_keyword(name) {
        quote::format_ident!("{name}_")
    } else {
        syn::Ident::new(name, proc_macro2::Span::call_site())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_mapped_deterministically() {
        assert_eq!(field("maxResults"), "max_results");
        assert_eq!(field("file-path"), "file_path");
        assert_eq!(field("$ref"), "ref");
        assert_eq!(field("2fa"), "_2fa");
        assert_eq!(field("@@"), "field");
        assert_eq!(field("self"), "self_");
        assert_eq!(camel("date-time"), "DateTime");
        assert_eq!(camel("user_id"), "UserId");
        assert_eq!(camel("3d"), "V3d");
        let mut scope = Scope::default();
        assert_eq!(scope.take(field("fooBar")), "foo_bar");
        assert_eq!(scope.take(field("foo_bar")), "foo_bar2");
        assert_eq!(field_ident("type").to_string(), "r#type");
        assert_eq!(type_ident("Self").to_string(), "Self_");
    }
}
